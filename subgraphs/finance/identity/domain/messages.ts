import type { Logger } from '../../../../lib/logger';
import type { Mailer } from '../../../../lib/mailer';
import type { SmsProvider } from './sms';

/**
 * Everything the finance node sends a person — mails and text messages — goes through here: the
 * sender is named after the node's branding, and every link is absolute and opens a page of the web
 * client (clientLink). A new kind of message is declared in MESSAGE_KINDS (the contract test
 * test/finance/contract/message-links.test.ts triggers each kind and checks its links and sender).
 */

/** The web client's pages a message may link to (clients/finance-web/src/app.tsx routes), relative to the client's URL. */
export const CLIENT_PAGES = {
  signIn: '',
  verifyEmail: 'verify-email/',
  forgotPassword: 'reset/',
  resetPassword: 'reset-password/',
} as const;
export type ClientPage = keyof typeof CLIENT_PAGES;

/** Every kind of message the node sends, and how: the mail's X-Mail-Kind header is `finance:<kind>`. */
export const MESSAGE_KINDS = {
  email_verify: 'mail',
  signup_address_held: 'mail',
  password_reset: 'mail',
  phone_code: 'sms',
} as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;
export type MailKind = { [K in MessageKind]: (typeof MESSAGE_KINDS)[K] extends 'mail' ? K : never }[MessageKind];

/** The X-Mail-Kind of the finance node's mails (the development outbox lists only these). */
export const mailKindHeader = (kind: MailKind) => `finance:${kind}`;
export const FINANCE_MAIL_KIND_PREFIX = 'finance:';

export interface ClientLinkSettings {
  /** FRONTEND_URL: the web client's public URL (its path is where the client is served). Required in production. */
  frontendUrl?: string;
  /** Development (NODE_ENV not production): without FRONTEND_URL, the origin of the request that caused the message stands in. */
  development: boolean;
  /** The client's URL when neither is known (development, a GraphQL client that gave no origin): the node's own surface. */
  fallback: string;
}

/** The origin (scheme://host[:port]) a request names, or undefined when it is not an http(s) origin. */
function originOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/+$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** The web client's URL, ending in `/`: FRONTEND_URL; else in development the request's origin at /app/; else the fallback. */
export function clientBase(settings: ClientLinkSettings, requestOrigin?: string | null): string {
  if (settings.frontendUrl) return withSlash(settings.frontendUrl);
  const origin = settings.development ? originOf(requestOrigin) : undefined;
  return withSlash(origin ? `${origin}/app/` : settings.fallback);
}

/** The one way a message links to the client: an absolute URL of one of its pages, with query parameters. */
export function clientLink(settings: ClientLinkSettings, page: ClientPage, params: Record<string, string> = {}, requestOrigin?: string | null): string {
  const url = new URL(CLIENT_PAGES[page], clientBase(settings, requestOrigin));
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export interface MessengerDeps {
  mailer: Mailer;
  sms: SmsProvider;
  links: ClientLinkSettings;
  /** The node's name as its branding says (organisation name); falls back to APP_NAME when the branding cannot be read. */
  brandName: () => Promise<string>;
  logger: Logger;
}

/** Sends the node's mails and text messages, named after its branding, with absolute links to the web client. */
export class Messenger {
  constructor(private readonly d: MessengerDeps) {}

  /** An absolute link to a page of the web client (see clientLink). */
  link(page: ClientPage, params: Record<string, string> = {}, requestOrigin?: string | null): string {
    return clientLink(this.d.links, page, params, requestOrigin);
  }

  brandName(): Promise<string> {
    return this.d.brandName();
  }

  /**
   * A mail from "<brand> <MAIL_FROM's address>", subject "<brand>: <subject>"; `text` gets the brand name.
   * A failure is logged, not the caller's problem (they may ask again).
   */
  async mail(kind: MailKind, to: string, subject: string, text: (brand: string) => string): Promise<void> {
    const brand = await this.d.brandName();
    await this.d.mailer.send({ to, subject: `${brand}: ${subject}`, text: text(brand), fromName: brand, kind: mailKindHeader(kind) }).catch((err: unknown) => {
      this.d.logger.error({ err: (err as Error).message, kind }, 'mail could not be sent');
    });
  }

  /** A text message "<brand>: <body>"; the provider's failure is the caller's (it answers 503 or 400). */
  async sms(to: string, body: string): Promise<{ id: string }> {
    return this.d.sms.send({ to, body: `${await this.d.brandName()}: ${body}` });
  }
}

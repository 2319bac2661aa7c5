import { convert } from 'html-to-text';
import PostalMime from 'postal-mime';
import { DomainError, badInput } from '../../../../lib/errors';

/** The subject an e-mailed application carries (contract §5). */
export const APPLICATION_SUBJECT = 'API Access Request';

/** An application as read from an e-mail; ApplicationService validates it like a form. */
export interface MailedApplication {
  name: string;
  email: string;
  usage: string;
  /** Message-ID header: the same message delivered twice is one application. */
  messageId: string | null;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The subject must be `API Access Request`, compared without regard to case or spacing. Replies
 * and forwards (`Re:`, `Fwd:` …) are not accepted: they continue a conversation (or carry someone
 * else's request) rather than apply, and the applicant is who writes the request.
 */
export const isApplicationSubject = (subject: string | undefined) => collapse(subject ?? '').toLowerCase() === APPLICATION_SUBJECT.toLowerCase();

/** Body labels: `Name:`, `Organisation:`, `E-mail:`, `Usage:` (and their common variants). */
const LABELS: Record<string, RegExp> = {
  name: /^(?:name|full name|your name)$/i,
  organisation: /^(?:organi[sz]ation|company|organi[sz]ation name)$/i,
  email: /^(?:e-?mail|contact e-?mail|contact|e-?mail address)$/i,
  usage: /^(?:usage|intended usage|use case|project|integration|purpose)$/i,
};
const LABEL_LINE = /^\s*([A-Za-z][A-Za-z -]{1,30}?)\s*:\s*(.*)$/;

function labelOf(line: string): { field: string; value: string } | undefined {
  const m = LABEL_LINE.exec(line);
  if (!m) return undefined;
  const field = Object.keys(LABELS).find((f) => LABELS[f].test(m[1].trim()));
  return field ? { field, value: m[2] } : undefined;
}

// a line that is only a greeting or a sign-off (up to three more words: "Hi team,", "Thanks in advance!")
const GREETING = /^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))(?:\s+[\w.'-]+){0,3}\s*[,!]?$/i;
const SIGN_OFF = /^(?:thanks|thank you|many thanks|regards|kind regards|best regards|best wishes|best|cheers|sincerely|yours)(?:\s+[\w.'-]+){0,3}\s*[,.!]?$/i;

/**
 * The message's own text: without quoted lines (`>`), an opening greeting, and everything from the
 * sign-off ("Thanks,", "Best regards") or the signature (`-- `) on.
 */
function ownLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((l) => !l.startsWith('>'));
  const end = lines.findIndex((l) => l === '-- ' || l === '--' || SIGN_OFF.test(l.trim()));
  const own = end >= 0 ? lines.slice(0, end) : lines;
  const first = own.findIndex((l) => l.trim() !== '');
  if (first >= 0 && GREETING.test(own[first].trim())) own.splice(first, 1);
  return own;
}

/** Labelled fields of the body; a `Usage:` section runs until the next label. The rest is free text. */
function readBody(text: string): { fields: Record<string, string>; rest: string } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  let current: string | undefined;
  for (const line of ownLines(text)) {
    const label = labelOf(line);
    if (label) {
      current = label.field;
      fields[current] = fields[current] ? `${fields[current]}\n${label.value}` : label.value;
    } else if (current === 'usage') {
      fields.usage += `\n${line}`;
    } else {
      current = undefined;
      rest.push(line);
    }
  }
  for (const k of Object.keys(fields)) fields[k] = fields[k].trim();
  return { fields, rest: rest.join('\n').trim() };
}

/** `jane@example.org` or `Jane <jane@example.org>` → the address; anything else as written (validated later). */
function addressIn(value: string): string {
  const [first] = PostalMime.addressParser(value, { flatten: true });
  return first?.address || value;
}

/**
 * The text of an HTML-only message, from a real HTML parser (htmlparser2, through html-to-text): linear
 * in the input (a regular expression over `<script` without its end tag was quadratic), entities
 * decoded, scripts, styles and images left out, link targets dropped (the applicant's words count).
 */
const htmlToText = (html: string) =>
  convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    ],
  });

/**
 * At most this many MIME parts are read: an application is a few kilobytes in one or two parts, and
 * parsing costs time per part (80,000 empty parts in 800 kB took postal-mime 2–5 s). Counted by a
 * linear scan of the boundary lines before anything is parsed.
 */
export const MAX_MIME_PARTS = 200;

/** Lines that can open a MIME part (`--boundary`), counted without parsing: an upper bound of the parts. */
export function boundaryLines(raw: string | Uint8Array): number {
  const bytes = typeof raw === 'string' ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  let count = bytes[0] === 0x2d && bytes[1] === 0x2d ? 1 : 0;
  for (let i = bytes.indexOf('\n--'); i >= 0; i = bytes.indexOf('\n--', i + 3)) count++;
  return count;
}

const tooManyParts = () =>
  badInput(`The message has too many MIME parts (more than ${MAX_MIME_PARTS}); an application is plain text.`, {
    message: [`At most ${MAX_MIME_PARTS} MIME parts.`],
  });

async function parseMime(raw: string | Uint8Array): Promise<PostalMime.Email> {
  if (!raw || raw.length === 0) throw badInput('The message is empty.');
  if (boundaryLines(raw) > MAX_MIME_PARTS) throw tooManyParts();
  try {
    return await PostalMime.parse(raw);
  } catch {
    throw badInput('The message could not be read as an RFC 822 e-mail.');
  }
}

/**
 * Reads an application from a raw RFC 822 message (parsed with postal-mime).
 * - applicant e-mail: an `E-mail:` line of the body, else Reply-To, else From;
 * - name: `Name:` and/or `Organisation:` lines (joined "Name, Organisation"), else the display name
 *   of that sender;
 * - intended usage: the `Usage:` section, else the body's free text (quoted lines and the signature
 *   left out).
 * Anything that is not such a message is a BAD_USER_INPUT with the reason; so is a message of more
 * than MAX_MIME_PARTS parts. It runs in the mail worker (mail-reader.ts), off the event loop.
 */
export async function parseApplicationMail(raw: string | Uint8Array): Promise<MailedApplication> {
  return applicationOf(await parseMime(raw));
}

function applicationOf(mail: PostalMime.Email): MailedApplication {
  if (!mail.headers.length || !mail.from) throw badInput('The message could not be read as an RFC 822 e-mail: it has no From header.');
  const autoSubmitted = mail.headers
    .find((h) => h.key === 'auto-submitted')
    ?.value.trim()
    .toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') throw badInput('Automatic messages (Auto-Submitted) are not applications.');
  if (!isApplicationSubject(mail.subject)) {
    throw badInput(`The subject must be "${APPLICATION_SUBJECT}" (it was "${collapse(mail.subject ?? '').slice(0, 100)}").`, {
      subject: [`Use the subject "${APPLICATION_SUBJECT}".`],
    });
  }
  const sender = [...(mail.replyTo ?? []), mail.from].map((a) => (a.group ? a.group[0] : a)).find((a) => a?.address);
  const { fields, rest } = readBody(mail.text ?? (mail.html ? htmlToText(mail.html) : ''));
  const name = [fields.name, fields.organisation].filter(Boolean).join(', ') || collapse(sender?.name ?? '') || collapse(mail.from.name ?? '');
  const usage = fields.usage || rest;
  const missing: Record<string, string[]> = {};
  if (!name) missing.name = ['Add a line "Name: <your name or organisation>", or send the message from an address with a display name.'];
  if (!usage) missing.usage = ['Describe your project or integration in the message (a "Usage:" section).'];
  if (Object.keys(missing).length) throw badInput(`The message is missing details: ${Object.values(missing).flat().join(' ')}`, missing);
  return {
    name,
    email: (fields.email && addressIn(fields.email)) || sender?.address || '',
    usage,
    messageId: mail.messageId?.trim() || null,
  };
}

/** What a delivered message is, as the mailbox needs it: its subject, and the application or the reason it is none. */
export interface MailRead {
  subject?: string;
  application?: MailedApplication;
  /** Why it is not an application (a BAD_USER_INPUT's message and details): its subject, missing details, unreadable. */
  problem?: { message: string; details?: unknown };
  /** It was not read at all: past the budget of a message (MIME parts, time, memory). */
  overBudget?: boolean;
}

const problemOf = (err: unknown): MailRead['problem'] => {
  if (err instanceof DomainError) return { message: err.message, details: err.extensions.details };
  throw err;
};

/** One message read once (parsed once): plain data, so that it crosses from the mail worker. */
export async function readMail(raw: string | Uint8Array): Promise<MailRead> {
  let mail: PostalMime.Email;
  if (raw.length > 0 && boundaryLines(raw) > MAX_MIME_PARTS) return { problem: problemOf(tooManyParts()), overBudget: true };
  try {
    mail = await parseMime(raw);
  } catch (err) {
    return { problem: problemOf(err) };
  }
  try {
    return { subject: mail.subject, application: applicationOf(mail) };
  } catch (err) {
    return { subject: mail.subject, problem: problemOf(err) };
  }
}

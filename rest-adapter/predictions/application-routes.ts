import type { Request } from 'express';
import { z } from 'zod';
import { CONFIRMATION_LINK_DAYS } from '../../subgraphs/predictions/access/vocabulary';
import type { Reply, Route, RouteError, RouteInput } from '../core/route';
import { consoleThemeRoute } from '../console/theme';
import {
  APPLY,
  HONEYPOT_FIELD,
  applicationFormPage,
  applicationReceivedPage,
  confirmationPage,
  type ConfirmationView,
  type FormValues,
} from './application-pages';
import { route, type ResultOf } from './operation';

/**
 * Access applications (contract §5): the online form, its JSON variant for integrators, the
 * inbound-mail webhook, and the page behind the link that confirms an applicant's address. No key
 * is needed; the rules (validation, the same application twice, the webhook secret, the per-address
 * limits, the confirmation) live in the access subgraph.
 */

const text = (description: string) => z.string().describe(description);

/** Form fields arrive as strings; missing ones are empty, so the domain reports every field at once. */
const applicationForm = z.object({
  name: text('Name or organisation (2–200 characters)').default(''),
  usage: text('Intended usage: the project or integration (10–2,000 characters)').default(''),
  email: text('Contact e-mail address; the key is sent there').default(''),
});

const applicationBody = z.object({
  name: text('Name or organisation (2–200 characters)'),
  usage: text('Intended usage: the project or integration (10–2,000 characters)'),
  email: text('Contact e-mail address; the key is sent there'),
});

const receipt = z.object({
  detail: z.string().describe('That the application was received, and what happens next: the same answer whatever existed before'),
});

const toReceipt = (r: ResultOf<'SubmitApplication'>['submitApplication']) => ({ detail: r.message });

/**
 * The origin the applicant's request named, for the links of the application's mails — only while
 * PUBLIC_URL_PREDICTIONS is unset (development: production requires it, lib/config.ts).
 */
const requestOrigin = ({ req, config }: Pick<RouteInput, 'req' | 'config'>) => (config.PUBLIC_URL_PREDICTIONS ? null : `${req.protocol}://${req.get('host')}`);

const confirmationQuery = z.object({ token: z.string().max(200).default('').describe('The token of the link mailed to the applicant') });
const confirmationForm = z.object({ token: z.string().max(200).default('') });

const confirmationReply = (view: ConfirmationView): Reply => ({ kind: 'html', status: view.state === 'invalid' ? 404 : 200, html: confirmationPage(view) });

/**
 * A bot that fills in every field also fills in the form's hidden honeypot field: it gets the usual
 * answer, and nothing reaches the system.
 */
const honeypot = (req: Request): Reply | undefined => {
  const value = (req.body as Record<string, unknown> | undefined)?.[HONEYPOT_FIELD];
  return typeof value === 'string' && value.trim() !== '' ? { kind: 'html', status: 200, html: applicationReceivedPage() } : undefined;
};

/** What the applicant typed, as strings (also when the body failed its schema). */
function formValues(input: RouteInput<unknown, unknown, unknown>): FormValues {
  const raw = (input.body ?? input.req.body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : '');
  return { name: str(raw.name), usage: str(raw.usage), email: str(raw.email) };
}

export const applicationRoutes: Route[] = [
  consoleThemeRoute(APPLY),
  route({
    method: 'GET',
    path: '/apply/',
    summary: 'Application form for an API key (HTML)',
    description: 'The online application form: name or organisation, intended usage, contact e-mail. It posts to the same path.',
    tags: ['Access'],
    security: 'none',
    operation: 'ApplicationForm',
    response: { description: 'The form (HTML)', contentType: 'text/html' },
    respond: (data, input) => ({
      kind: 'html',
      html: applicationFormPage({ plans: data.plans, mailbox: input.config.APPLICATION_MAIL_ADDRESS }),
    }),
  }),
  route({
    method: 'POST',
    path: '/apply/',
    summary: 'Submit the application form (HTML)',
    description:
      'Answers 200 with a page saying that the application was received and that a link to confirm the address was mailed to it ' +
      '(the same page whatever existed before: no reference, no status). The same application again (same e-mail address and intended ' +
      'usage) makes no second one. Invalid input: 400 with the form again, the messages beside their fields. More than ' +
      'APPLICATIONS_PER_HOUR applications from one address: 429 with Retry-After.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplication',
    operationId: 'SubmitApplicationForm',
    consumes: 'form',
    intercept: honeypot,
    body: applicationForm,
    variables: (input: RouteInput<unknown, unknown, FormValues>) => ({ input: input.body, origin: requestOrigin(input) }),
    response: { status: 200, description: 'Application received (HTML)', contentType: 'text/html' },
    errors: [400, 429],
    respond: () => ({ kind: 'html', status: 200, html: applicationReceivedPage() }),
    respondError: (error: RouteError, input) => ({
      kind: 'html',
      status: error.status,
      html: applicationFormPage({
        mailbox: input.config.APPLICATION_MAIL_ADDRESS,
        values: formValues(input as RouteInput<unknown, unknown, Partial<FormValues> | undefined>),
        fields: error.fields,
        message: error.status >= 500 ? 'Something went wrong on our side; your application was not saved. Please try again in a few minutes.' : error.message,
      }),
    }),
  }),
  route({
    method: 'POST',
    path: '/api/applications/',
    summary: 'Apply for an API key (JSON)',
    description:
      'The application form for integrators. 202 with `{"detail"}`: received, and a link to confirm the address was mailed to it; ' +
      'the same answer whatever existed before (the same application again makes no second one). Invalid fields: 400 with `errors` ' +
      'per field. More than APPLICATIONS_PER_HOUR applications from one address: 429 with Retry-After.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplication',
    body: applicationBody,
    variables: (input: RouteInput<unknown, unknown, FormValues>) => ({ input: input.body, origin: requestOrigin(input) }),
    response: { status: 202, description: 'Application received', schema: receipt },
    errors: [400, 429],
    respond: (data) => ({ kind: 'json', status: 202, body: toReceipt(data.submitApplication) }),
  }),
  route({
    method: 'GET',
    path: '/apply/confirm/',
    summary: "Confirm an applicant's e-mail address: the page behind the link in the mail (HTML)",
    description:
      'Shows whom the link is for and a button that confirms (a POST: mail scanners that open links confirm nothing). ' +
      `A link works for ${CONFIRMATION_LINK_DAYS} days; an unknown or expired one: 404 with a page saying to apply again.`,
    tags: ['Access'],
    security: 'none',
    operation: 'ApplicationConfirmation',
    query: confirmationQuery,
    variables: ({ query }: { query: { token: string } }) => ({ token: query.token }),
    response: {
      description: 'The confirmation page (HTML)',
      contentType: 'text/html',
      otherStatuses: { 404: 'Unknown or expired link: a page saying to apply again (HTML)' },
    },
    respond: (data, input) => confirmationReply({ ...data.applicationConfirmation, token: (input.query as { token: string }).token, confirmedNow: false }),
  }),
  route({
    method: 'POST',
    path: '/apply/confirm/',
    summary: "Confirm an applicant's e-mail address (HTML form)",
    description: 'Confirms the address: the application goes to review. Again: the same page. Unknown or expired token: 404.',
    tags: ['Access'],
    security: 'none',
    operation: 'ConfirmApplication',
    consumes: 'form',
    body: confirmationForm,
    variables: ({ body }: { body: { token: string } }) => ({ token: body.token }),
    response: {
      description: 'Confirmed (HTML)',
      contentType: 'text/html',
      otherStatuses: { 404: 'Unknown or expired token: a page saying to apply again (HTML)' },
    },
    respond: (data, input) => confirmationReply({ ...data.confirmApplication, token: (input.body as { token: string }).token, confirmedNow: true }),
  }),
  route({
    method: 'POST',
    path: '/api/applications/inbound-email/',
    summary: 'Inbound-mail webhook: an application e-mailed with the subject "API Access Request"',
    description:
      'For the mail system: the body is the raw RFC 822 message (`Content-Type: message/rfc822` or `text/plain`). The request carries ' +
      'the shared secret in `X-Inbound-Mail-Secret` (the INBOUND_MAIL_SECRET setting; without it the webhook is disabled): a missing or ' +
      'wrong secret is 403; after 5 wrong secrets from one address in 15 minutes, 429 with Retry-After (even with the right one). ' +
      'The subject must be exactly "API Access Request" (any case; replies and forwards are refused). The applicant is read from the ' +
      'body lines `Name:`/`Organisation:`, `E-mail:` and `Usage:`, else from Reply-To/From and the message text; a link to confirm ' +
      'that address is mailed to it before anyone reviews the application. 202 with `{"detail"}`; the same message (Message-ID) or ' +
      'the same application again makes no second one. More than INBOUND_MAILS_PER_HOUR calls from one address: 429. Anything else is 400.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplicationEmail',
    consumes: 'text',
    body: z.string().min(1).describe('The raw RFC 822 message'),
    // the secret travels as a credential (its header, verified by the gateway), never as a variable
    variables: (input: RouteInput<unknown, unknown, string>) => ({ rawMessage: input.body, origin: requestOrigin(input) }),
    response: { status: 202, description: 'Application received', schema: receipt },
    errors: [400, 403, 429],
    respond: (data) => ({ kind: 'json', status: 202, body: toReceipt(data.submitApplicationEmail) }),
  }),
];

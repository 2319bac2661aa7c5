import { z } from 'zod';
import type { Route, RouteError, RouteInput } from '../core/route';
import { applicationFormPage, applicationReceivedPage, type FormValues, type PlanInfo } from './application-pages';

/**
 * Access applications (contract §5): the online form, its JSON variant for integrators, and the
 * inbound-mail webhook. No key is needed; the rules (validation, the same application twice, the
 * webhook secret) live in the access subgraph.
 */

interface Receipt {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
  created: boolean;
  createdAt: string;
  message: string;
}

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
  id: z.string().uuid().describe('Reference of the application'),
  status: z.enum(['pending', 'approved', 'rejected']),
  created: z.boolean().describe('false: the same application already existed (same e-mail address and usage, or the same message); nothing new was made'),
  created_at: z.string().describe('When the application was first received'),
  message: z.string(),
});

const toReceipt = (r: Receipt) => ({ id: r.id, status: r.status, created: r.created, created_at: r.createdAt, message: r.message });

/** What the applicant typed, as strings (also when the body failed its schema). */
function formValues(input: RouteInput<unknown, unknown, Partial<FormValues> | undefined>): FormValues {
  const raw = (input.body ?? input.req.body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : '');
  return { name: str(raw.name), usage: str(raw.usage), email: str(raw.email) };
}

export const INBOUND_SECRET_HEADER = 'x-inbound-mail-secret';

export const applicationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/apply/',
    summary: 'Application form for an API key (HTML)',
    description: 'The online application form: name or organisation, intended usage, contact e-mail. It posts to the same path.',
    tags: ['Access'],
    security: 'none',
    operation: 'ApplicationForm',
    response: { description: 'The form (HTML)', contentType: 'text/html' },
    respond: (data: { plans: PlanInfo[] }) => ({ kind: 'html', html: applicationFormPage({ plans: data.plans }) }),
  },
  {
    method: 'POST',
    path: '/apply/',
    summary: 'Submit the application form (HTML)',
    description:
      'Answers 201 with a confirmation page, or 200 when the same application (same e-mail address and intended usage) is already ' +
      'pending or approved: no second application is made. Invalid input: 400 with the form again, the messages beside their fields.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplication',
    consumes: 'form',
    body: applicationForm,
    variables: ({ body }: { body: FormValues }) => ({ input: body }),
    response: { status: 201, description: 'Application received (HTML)', contentType: 'text/html' },
    errors: [400],
    respond: (data: { submitApplication: Receipt }, input) => {
      const r = data.submitApplication;
      const { name, email } = formValues(input);
      return { kind: 'html', status: r.created ? 201 : 200, html: applicationReceivedPage({ ...r, name: name.trim(), email: email.trim() }) };
    },
    respondError: (error: RouteError, input) => ({
      kind: 'html',
      status: error.status,
      html: applicationFormPage({
        values: formValues(input),
        fields: error.fields,
        message: error.status >= 500 ? 'Something went wrong on our side; your application was not saved. Please try again in a few minutes.' : error.message,
      }),
    }),
  },
  {
    method: 'POST',
    path: '/api/applications/',
    summary: 'Apply for an API key (JSON)',
    description:
      'The application form for integrators. 201 with the application\'s reference; 200 with `created: false` when the same application ' +
      '(same e-mail address and intended usage) is already pending or approved. Invalid fields: 400 with `errors` per field.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplication',
    body: applicationBody,
    variables: ({ body }: { body: FormValues }) => ({ input: body }),
    response: { status: 201, description: 'Application received', schema: receipt },
    errors: [400],
    respond: (data: { submitApplication: Receipt }) => ({ kind: 'json', status: data.submitApplication.created ? 201 : 200, body: toReceipt(data.submitApplication) }),
  },
  {
    method: 'POST',
    path: '/api/applications/inbound-email/',
    summary: 'Inbound-mail webhook: an application e-mailed with the subject "API Access Request"',
    description:
      'For the mail system: the body is the raw RFC 822 message (`Content-Type: message/rfc822` or `text/plain`). The request carries ' +
      'the shared secret in `X-Inbound-Mail-Secret` (the INBOUND_MAIL_SECRET setting; without it the webhook is disabled): a missing or ' +
      'wrong secret is 403. The subject must be exactly "API Access Request" (any case; replies and forwards are refused). The applicant ' +
      'is read from the body lines `Name:`/`Organisation:`, `E-mail:` and `Usage:`, else from Reply-To/From and the message text. ' +
      '202 with the application\'s reference; the same message (Message-ID) or the same application again answers the existing one ' +
      '(`created: false`). Anything else is 400.',
    tags: ['Access'],
    security: 'none',
    operation: 'SubmitApplicationEmail',
    consumes: 'text',
    body: z.string().min(1).describe('The raw RFC 822 message'),
    variables: ({ body, req }: RouteInput<unknown, unknown, string>) => ({ rawMessage: body, secret: req.get(INBOUND_SECRET_HEADER) ?? null }),
    response: { status: 202, description: 'Application accepted for review', schema: receipt },
    errors: [400, 403],
    respond: (data: { submitApplicationEmail: Receipt }) => ({ kind: 'json', status: 202, body: toReceipt(data.submitApplicationEmail) }),
  },
];

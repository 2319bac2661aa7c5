import { Readable } from 'node:stream';
import { z } from 'zod';
import { objectStoreFor, type ObjectStore } from '../../../lib/object-store';
import { html, type Raw } from '../../../lib/html';
import { DECIDING_STATES, KYC_STATES } from '../../../subgraphs/finance/compliance/vocabulary';
import type { AnyRouteInput, Reply, Route, RouteError, RouteInput } from '../../core/route';
import { csrfInput, financePage, table, userCell, when } from './layout';
import { route, type ResultOf } from '../operation';

/** The admin console's KYC reviews (/admin/compliance/verification/): the list, and approve / reject / ask for resubmission. */

const LIST_PATH = '/admin/compliance/verification/';
const TITLE = 'KYC reviews';

type VerificationData = ResultOf<'AdminKycVerifications'>['kycVerifications'][number];

const str = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : typeof v === 'string' ? v : '');

function page(input: AnyRouteInput, opts: { status?: number; user?: string; banners?: { level: 'error' | 'ok'; text: string }[] }, body: Raw): Reply {
  return financePage(
    input,
    {
      title: TITLE,
      user: opts.user,
      status: opts.status,
      banners: opts.banners,
      breadcrumbs: [{ label: 'Compliance', href: '/admin/compliance/' }, { label: TITLE }],
      back: { href: '/admin/compliance/', label: 'Back to Compliance' },
    },
    body,
  );
}

/** Not signed in → the sign-in page; any other refusal (409 with the current state, 400…) → the message on the page. */
function reviewError(error: RouteError, input: AnyRouteInput): Reply {
  if (error.status === 401) return { kind: 'redirect', status: 302, location: `/admin/login/?next=${encodeURIComponent(input.req.originalUrl)}` };
  return page(input, { status: error.status, banners: [{ level: 'error', text: error.message }] }, html``);
}

/** The person under review: the name they submitted, their handle (@user name) linking to their record. */
function person(v: VerificationData): Raw {
  return html`<strong>${v.firstName} ${v.lastName}</strong><br />${userCell(v)}`;
}

function reviewForms(v: VerificationData, csrfToken: string | undefined): Raw {
  if (!DECIDING_STATES.includes(v.state as (typeof DECIDING_STATES)[number])) return html`—`;
  const action = `${LIST_PATH}${v.id}/review/`;
  return html`<form method="post" action="${action}">
      ${csrfInput(csrfToken)}<input type="hidden" name="decision" value="verified" /><button class="default" type="submit">Approve</button>
    </form>
    <form method="post" action="${action}">
      ${csrfInput(csrfToken)}<input type="text" name="reason" placeholder="Reason (required)" required />
      <button class="delete" type="submit" name="decision" value="rejected">Reject</button>
      <button type="submit" name="decision" value="resubmission_required">Ask for resubmission</button>
    </form>`;
}

type DocumentView = ResultOf<'AdminViewKycDocument'>['viewKycDocument'];

/** The document streamed from the object store, never held in memory; shown inline (its type is from its bytes). */
function documentReply(d: DocumentView, objects: ObjectStore): Reply {
  const extension = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' }[d.contentType] ?? 'bin';
  return {
    kind: 'stream',
    body: {
      size: d.size,
      contentType: d.contentType,
      etag: d.sha256,
      headers: {
        'content-disposition': `inline; filename=${d.kind}-${d.id.slice(0, 8)}.${extension}`,
        'cache-control': 'private, no-store',
        'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      },
      // inline: the reviewer's browser shows it (an image or a PDF, by its bytes)
      open: (range) => Readable.from(streamOf(objects, d.objectKey, range)),
    },
  };
}

async function* streamOf(objects: ObjectStore, key: string, range?: { start: number; end: number }): AsyncGenerator<Buffer> {
  for await (const chunk of await objects.get(key, range)) yield chunk as Buffer;
}

const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const kycAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: LIST_PATH,
    summary: 'Admin console: KYC reviews',
    description: 'Verifications, most recently changed first (`?state=` one of the states); those pending or in review carry the review actions.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminKycVerifications',
    query: z.object({ state: z.enum(KYC_STATES).optional(), saved: z.string().optional() }),
    variables: ({ query }: RouteInput<object, { state?: string }>) => ({ state: query.state ?? null }),
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) => {
      const filters = html`<p>
        Filter: <a href="${LIST_PATH}">all</a>${KYC_STATES.map((s) => html` · <a href="${LIST_PATH}?state=${s}">${s.replace(/_/g, ' ')}</a>`)}
      </p>`;
      const rows = data.kycVerifications.map((v) => [
        html`<code>${v.id.slice(0, 8)}</code>`,
        person(v),
        v.level,
        v.state.replace(/_/g, ' '),
        v.provider,
        v.documents.map(
          (d) =>
            html`<div><a href="${LIST_PATH}documents/${d.id}/" target="_blank" rel="noopener">${d.kind.replace(/_/g, ' ')}</a></div>
              <div><small>${d.contentType}, ${d.size} B</small></div>`,
        ),
        when(v.submittedAt),
        when(v.expiresAt),
        v.reason,
        reviewForms(v, input.csrfToken),
      ]);
      return page(
        input,
        {
          user: data.nodeAdminUser.username,
          banners: (input.query as { saved?: string }).saved ? [{ level: 'ok', text: 'The verification was reviewed successfully.' }] : [],
        },
        html`${filters}${table(
          TITLE,
          ['Verification', 'Person', 'Level', 'State', 'Provider', 'Documents', 'Submitted', 'Expires', 'Reason', 'Review'],
          rows,
        )}`,
      );
    },
    respondError: reviewError,
  }),
  route({
    method: 'GET',
    path: `${LIST_PATH}documents/:id/`,
    summary: 'Admin console: view a KYC document',
    description:
      "The document's bytes from the object store, with the type recognised from them at upload (JPEG, PNG or PDF). Each view is audited (kyc.document_viewed).",
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminViewKycDocument',
    params: z.object({ id: z.string().uuid() }),
    variables: ({ params }: RouteInput<{ id: string }>) => ({ documentId: params.id }),
    // the document's own type: image/jpeg, image/png or application/pdf
    response: { description: 'The document (inline)', contentType: '*/*' },
    errors: [404],
    respond: (data, input) => documentReply(data.viewKycDocument, objectStoreFor(input.config)),
    respondError: reviewError,
  }),
  route({
    method: 'POST',
    path: `${LIST_PATH}:id/review/`,
    summary: 'Admin console: review a verification',
    description: 'Form fields decision (verified, rejected, resubmission_required), reason (required unless approving) and the CSRF token.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminReviewKycVerification',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: form,
    variables: ({ params, body }: RouteInput<{ id: string }, object, Record<string, unknown>>) => ({
      verificationId: params.id,
      decision: str(body.decision),
      reason: str(body.reason),
    }),
    response: { status: 302, description: 'Reviewed' },
    errors: [400, 404, 409],
    respond: () => ({ kind: 'redirect', status: 302, location: `${LIST_PATH}?saved=1` }),
    respondError: reviewError,
  }),
];

import { z } from 'zod';
import { html, raw, type Raw } from '../../../lib/html';
import type { Reply, Route } from '../../core/route';
import { route, type ResultOf } from '../operation';
import { DEV_OUTBOX_PATH } from '../../../subgraphs/finance/kernel/contract';

type OutboxMessage = ResultOf<'DevOutbox'>['nodeDevOutbox'][number];

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;

/** A message body as text, its http(s) URLs as links (everything escaped). */
function linkified(body: string): Raw {
  let out = '';
  let last = 0;
  for (const match of body.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:]+$/, '');
    out += html`${body.slice(last, match.index)}<a href="${url}">${url}</a>`.value;
    last = match.index + url.length;
  }
  return raw(out + html`${body.slice(last)}`.value);
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 1rem; max-width: 60rem; color: #0f172a; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  .note { color: #475569; margin: 0 0 1rem; }
  article { border: 1px solid #cbd5e1; border-radius: .5rem; padding: .75rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
  article h2 { font-size: 1rem; margin: 0 0 .25rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 .75rem; margin: 0 0 .5rem; color: #475569; font-size: .9rem; }
  dd { margin: 0; }
  pre { white-space: pre-wrap; font: inherit; margin: 0; }
  .kind { font-size: .8rem; background: #e2e8f0; border-radius: .25rem; padding: 0 .35rem; margin-left: .35rem; }
`;

function outboxPage(messages: OutboxMessage[]): string {
  const items = messages.map(
    (m) =>
      html`<article data-channel="${m.channel}" data-kind="${m.kind}">
        <h2>${m.channel === 'sms' ? 'SMS' : m.subject}<span class="kind">${m.kind}</span></h2>
        <dl>
          <dt>To</dt>
          <dd class="to">${m.to}</dd>
          ${
            m.from
              ? html`<dt>From</dt>
                  <dd class="from">${m.from}</dd>`
              : ''
          }
          <dt>Sent</dt>
          <dd><time datetime="${m.sentAt}">${new Date(m.sentAt).toUTCString()}</time></dd>
        </dl>
        <pre class="body">${linkified(m.body)}</pre>
      </article>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Outbox (development)</title>
        <style>
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        <main>
          <h1>Outbox</h1>
          <p class="note">
            Development only: the mails and text messages this node "sent", newest first. Nothing here left the machine. Reload to see new ones.
          </p>
          ${messages.length ? items : html`<p role="status">Nothing sent yet.</p>`}
        </main>
      </body>
    </html>`.value;
}

const notFoundPage = (): Reply => ({
  kind: 'html',
  status: 404,
  html: html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Not found</title>
      </head>
      <body>
        <h1>Not found</h1>
      </body>
    </html>`.value,
});

/**
 * GET /dev/outbox/: the development outbox (like Mailpit beside a real app), a page of the finance
 * surface. Production: 404 (the identity subgraph refuses nodeDevOutbox there).
 */
export const devOutboxRoutes: Route[] = [
  route({
    method: 'GET',
    path: DEV_OUTBOX_PATH,
    summary: 'Development outbox: the mails and text messages the node "sent"',
    description: 'Development only (404 in production): an HTML page listing the newest mails (file outbox) and SMS (sandbox provider), newest first.',
    tags: ['Development'],
    security: 'none',
    credentials: [],
    operation: 'DevOutbox',
    documented: false,
    query: z.object({ first: z.coerce.number().int().min(1).max(200).optional() }),
    variables: ({ query }: { query: { first?: number } }) => ({ first: query.first ?? 50 }),
    response: { description: 'The outbox page', contentType: 'text/html' },
    errors: [404],
    respond: (data): Reply => ({
      kind: 'html',
      html: outboxPage(data.nodeDevOutbox),
      headers: { 'cache-control': 'no-store' },
    }),
    respondError: (e) => (e.status === 404 ? notFoundPage() : { kind: 'json', status: e.status, body: { detail: e.message, code: e.code } }),
  }),
];

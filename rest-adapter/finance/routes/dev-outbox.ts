import { z } from 'zod';
import { html, raw, type Raw } from '../../../lib/html';
import { consoleDocument, type ConsoleFrame } from '../../console/kit';
import { consoleThemeRoute } from '../../console/theme';
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

/** The outbox on the console kit: no header, the kit's stylesheet, a page for a developer (not indexed). */
export const OUTBOX_CONSOLE: ConsoleFrame = {
  home: DEV_OUTBOX_PATH,
  label: '',
  defaultSiteName: 'Outbox (development)',
  theme: {
    vars: { header: 'none', text: '#0f172a', muted: '#475569', background: '#fff', fontSize: '16px', width: '60rem' },
    title: (page) => page,
    header: () => html``,
    container: 'main',
    breadcrumbs: false,
    head: html`<meta name="robots" content="noindex" />`,
  },
};

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
  return consoleDocument(
    OUTBOX_CONSOLE,
    { title: 'Outbox (development)', siteName: OUTBOX_CONSOLE.defaultSiteName },
    html`<h1>Outbox</h1>
      <p class="note">Development only: the mails and text messages this node "sent", newest first. Nothing here left the machine. Reload to see new ones.</p>
      ${messages.length ? items : html`<p role="status">Nothing sent yet.</p>`}`,
  );
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
  consoleThemeRoute(OUTBOX_CONSOLE),
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

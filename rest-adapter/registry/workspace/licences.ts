import { z } from 'zod';
import { html, raw, type Raw } from '../../../lib/html';
import { renderMarkdown } from '../markdown';
import { csrfInput, flash, table } from '../../console/kit';
import { listQueryWith, listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput as RouteInput, Reply, Route, RouteInput as Input } from '../../core/route';
import { baseUrl, form, megabytes, page, pageError, SIGNED_IN, userOf, uuid, when, type WorkspaceSecurity } from './frame';
import { route, type ResultOf } from '../operation';

/** The workspace's licences, deployments, releases and downloads. */

type HomeData = ResultOf<'WorkspaceHome'>;

/** Reveal (asks the server, with the CSRF token from its cookie) and copy; no secret is in the page until revealed. */
const KEY_SCRIPT = `document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-reveal], button[data-copy]');
  if (!button) return;
  const id = button.dataset.reveal || button.dataset.copy;
  const cell = document.getElementById('key-' + id);
  if (button.dataset.reveal) {
    const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || '';
    const res = await fetch('/workspace/licences/' + id + '/key/', { method: 'POST', headers: { 'X-CSRFToken': csrf } });
    if (!res.ok) { cell.textContent = 'Could not reveal the key (' + res.status + ')'; return; }
    cell.textContent = (await res.json()).key;
    cell.dataset.revealed = 'true';
  } else {
    if (!cell.dataset.revealed) return;
    await navigator.clipboard.writeText(cell.textContent);
    button.textContent = 'Copied';
  }
});`;

type Deployment = HomeData['deployments'][number];

const badge = (good: boolean, text: string, testid?: string) => html`<span class="badge ${good ? 'ok' : 'bad'}" data-testid="${testid}">${text}</span>`;

function licencesTable(d: HomeData): Raw {
  return table(
    'Licences',
    ['Key', 'Status', 'Product · plan', 'Maintenance until', 'Nodes used / cap', ''],
    d.licences.map((l) => [
      html`<code id="key-${l.id}">${l.key}</code><br /><button type="button" class="small" data-reveal="${l.id}">Reveal</button>
        <button type="button" class="small" data-copy="${l.id}">Copy</button>`,
      badge(l.status === 'Active', l.status, 'licence-status'),
      `${l.product} · ${l.plan}`,
      l.maintenanceUntil,
      html`<span data-testid="nodes">${l.nodesInUse} / ${l.maxNodes}</span>`,
      html`<a href="/workspace/licences/${l.id}/releases/">Updates &amp; releases</a>`,
    ]),
    'No licences yet.',
  );
}

/** The deployments: the kit's list (search, a filter by state, paging, CSV export). */
function deploymentsList(d: HomeData, input: RouteInput): ListSpec<Deployment> {
  const keyOf = (n: Deployment) => d.licences.find((l) => l.id === n.licenceId)?.key ?? '';
  const metrics = (n: Deployment) => `${n.reportedStatus ?? '—'}${n.uptimeSeconds !== null ? `, up ${Math.round(n.uptimeSeconds / 3600)} h` : ''}`;
  return {
    title: 'Deployments',
    path: '/workspace/',
    filename: 'deployments',
    empty: 'No node has registered yet.',
    searchable: (n) => [n.hostname, n.ipAddress, n.currentVersion, n.reportedStatus, keyOf(n)],
    filters: [{ name: 'state', label: 'State', options: DEPLOYMENT_STATES.map((s) => ({ value: s, label: s })), matches: (n, v) => n.status === v }],
    columns: [
      { label: 'Host', cell: (n) => html`${n.hostname}<br /><span class="muted">${n.ipAddress}</span>`, csv: (n) => `${n.hostname} ${n.ipAddress}` },
      { label: 'State', cell: (n) => badge(n.status === 'alive', n.status), csv: (n) => n.status },
      { label: 'Version', cell: (n) => n.currentVersion },
      { label: 'Last heartbeat', cell: (n) => when(n.lastHeartbeatAt) },
      { label: 'Metrics', cell: metrics },
      { label: 'Licence', cell: (n) => html`<span class="muted">${keyOf(n)}</span>`, csv: keyOf },
      {
        label: '',
        cell: (n) =>
          html`<form method="post" action="/workspace/deployments/${n.id}/release/">
            ${csrfInput(input.csrfToken)}<button type="submit" class="small" data-testid="release-seat">Release seat</button>
          </form>`,
        csv: () => '',
      },
    ],
  };
}

const DEPLOYMENT_STATES = ['alive', 'dead'] as const;
const homeQuery = listQueryWith({ state: DEPLOYMENT_STATES }).extend({ released: z.string().optional() });

function home(d: HomeData, input: RouteInput): Reply {
  const deployments = listView(deploymentsList(d, input), d.deployments, input);
  if (deployments.kind === 'file') return deployments.reply;
  return page(
    input,
    { title: 'Licences', user: userOf(d.account), banners: flash(input, 'released', (host) => `The seat of ${host} is free.`) },
    html`<h1>${d.account.organisation.name}</h1>
      ${licencesTable(d)} ${deployments.body}
      <script>
        ${raw(KEY_SCRIPT)};
      </script>`,
  );
}

// ---- releases ----

/** The licence's releases and their artifacts (a waiting artifact has no size or digest yet). */
type ReleasesData = ResultOf<'WorkspaceReleases'>;

function releases(d: ReleasesData, input: RouteInput): Reply {
  const licenceId = (input.params as { licenceId: string }).licenceId;
  const items = d.releases.map(
    (r) =>
      html`<article class="card" aria-labelledby="release-${r.id}">
        <h2 id="release-${r.id}">${r.version} <span class="muted">(${r.channel}, published ${when(r.publishedAt)})</span></h2>
        <p>
          ${
            r.maintenanceCovered
              ? html`<span class="badge ok">Covered by maintenance</span>`
              : html`<span class="badge bad">Not covered: published after your maintenance ended; renew maintenance to download it</span>`
          }
        </p>
        <div class="changelog">${raw(renderMarkdown(r.changelog))}</div>
        ${
          r.maintenanceCovered
            ? html`<h3>Downloads</h3>
                <ul>
                  ${r.artifacts.map(
                    (a) =>
                      html`<li>
                        <a href="/workspace/licences/${licenceId}/artifacts/${a.id}/download">${a.filename}</a>
                        (${a.component}${a.size === null ? '' : `, ${megabytes(a.size)}`})${
                          a.sha256 ? html`<br /><span class="muted">SHA-256 <code>${a.sha256}</code></span>` : ''
                        }
                      </li>`,
                  )}
                </ul>
                <p><a href="/workspace/licences/${licenceId}/releases/${r.id}/manifest">Compose manifest of ${r.version}</a></p>`
            : ''
        }
      </article>`,
  );
  return page(
    input,
    { title: 'Updates and releases', user: userOf(d.account) },
    html`<h1>Updates and releases</h1>
      ${items.length ? items : html`<p>No releases yet.</p>`}`,
  );
}

export const licencePages: Route<WorkspaceSecurity>[] = [
  route({
    method: 'GET',
    path: '/workspace/',
    documented: false,
    summary: 'Workspace: licences and deployments',
    ...SIGNED_IN,
    operation: 'WorkspaceHome',
    query: homeQuery,
    response: {
      description: 'Licences (key masked, reveal and copy), status, maintenance end, nodes used / cap; deployments (HTML)',
      contentType: 'text/html',
    },
    respond: (data, input) => home(data, input),
    respondError: pageError('Licences'),
  }),
  route({
    method: 'POST',
    path: '/workspace/licences/:licenceId/key/',
    documented: false,
    summary: 'Workspace: reveal a licence key',
    description: 'Answers `{"key": "LIC-…"}`; needs the CSRF token (X-CSRFToken header).',
    ...SIGNED_IN,
    operation: 'WorkspaceRevealKey',
    csrf: true,
    params: z.object({ licenceId: uuid }),
    variables: ({ params }: Input<{ licenceId: string }>) => ({ licenceId: params.licenceId }),
    respond: (data) => ({ kind: 'json', body: { key: data.key }, headers: { 'cache-control': 'no-store' } }),
    response: { description: 'The full key' },
    errors: [403, 404],
  }),
  route({
    method: 'POST',
    path: '/workspace/deployments/:deploymentId/release/',
    documented: false,
    summary: 'Workspace: release a seat',
    description:
      'The Release seat button of the deployments table (form with the CSRF token): the deployment is removed, its seat free at once and its ' +
      'deploymentKey stops working, audited (deployment.released) as POST /api/v1/deployments/<id>/release is. Another organisation’s: 404.',
    ...SIGNED_IN,
    operation: 'WorkspaceReleaseDeployment',
    consumes: 'form',
    csrf: true,
    body: form,
    params: z.object({ deploymentId: uuid }),
    variables: ({ params }: Input<{ deploymentId: string }>) => ({ id: params.deploymentId }),
    respond: (data) => ({
      kind: 'redirect',
      status: 303,
      location: `/workspace/?released=${encodeURIComponent(data.released.hostname)}`,
    }),
    respondError: pageError('Licences'),
    response: { description: 'Back to the licences and deployments' },
    errors: [403, 404],
  }),
  route({
    method: 'GET',
    path: '/workspace/licences/:licenceId/releases/',
    documented: false,
    summary: 'Workspace: updates and releases of a licence',
    ...SIGNED_IN,
    operation: 'WorkspaceReleases',
    params: z.object({ licenceId: uuid }),
    variables: (input: Input<{ licenceId: string }>) => ({ licenceId: input.params.licenceId, baseUrl: baseUrl(input) }),
    response: { description: 'Releases with their changelogs, maintenance coverage, downloads and manifests (HTML)', contentType: 'text/html' },
    respond: (data, input) => releases(data, input),
    respondError: pageError('Updates and releases'),
  }),
  route({
    method: 'GET',
    path: '/workspace/licences/:licenceId/releases/:releaseId/manifest',
    documented: false,
    summary: 'Workspace: the compose manifest of a release',
    ...SIGNED_IN,
    operation: 'WorkspaceManifest',
    params: z.object({ licenceId: uuid, releaseId: uuid }),
    variables: (input: Input<{ licenceId: string; releaseId: string }>) => ({
      licenceId: input.params.licenceId,
      releaseId: input.params.releaseId,
      baseUrl: baseUrl(input),
    }),
    respond: (data) => ({
      kind: 'file',
      body: data.manifest.content,
      contentType: data.manifest.contentType,
      filename: data.manifest.filename,
    }),
    respondError: pageError('Compose manifest'),
    response: { description: 'The manifest file', contentType: 'application/yaml' },
  }),
  route({
    method: 'GET',
    path: '/workspace/licences/:licenceId/artifacts/:artifactId/download',
    documented: false,
    summary: 'Workspace: download an artifact (302 to a presigned link authorised by the session)',
    ...SIGNED_IN,
    operation: 'WorkspaceDownload',
    params: z.object({ licenceId: uuid, artifactId: uuid }),
    variables: (input: Input<{ licenceId: string; artifactId: string }>) => ({
      licenceId: input.params.licenceId,
      artifactId: input.params.artifactId,
      baseUrl: baseUrl(input),
    }),
    // the link is null only for a probe (HEAD on the API route), which this page never asks for
    respond: (data, input) =>
      data.download.url
        ? { kind: 'redirect', status: 302, location: data.download.url }
        : pageError('Download')({ status: 409, code: 'ARTIFACT_NOT_UPLOADED', message: 'This artifact has no download link yet.' }, input),
    respondError: pageError('Download'),
    response: { status: 302, description: 'Redirect to the presigned link' },
  }),
];

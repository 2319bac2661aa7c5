import { z } from 'zod';
import { html, raw, type Raw } from '../../../lib/html';
import { csrfInput, flash } from '../../console/kit';
import { listQueryWith, listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput as RouteInput, Reply, Route, RouteInput as Input } from '../../core/route';
import { baseUrl, form, megabytes, page, pageError, SIGNED_IN, str, toLogin, userOf, uuid, when, type FormBody, type WorkspaceSecurity } from './frame';
import { route, type ResultOf } from '../operation';
import type { BuildPackage } from '../operations/types.generated';

/** The workspace's whitelabel branding and custom frontend builds. */

type BrandingData = ResultOf<'WorkspaceBrandingPage'>;

/** The live preview: follows the form's fields (colours, name, an uploaded logo) and shows each colour's WCAG contrast. */
const PREVIEW_SCRIPT = `(() => {
  const form = document.getElementById('branding-form');
  const preview = document.getElementById('preview');
  const lum = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const hex = (v) => { v = (v || '').trim().toLowerCase(); const m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v); return m ? '#' + m[1] + m[1] + m[2] + m[2] + m[3] + m[3] : /^#[0-9a-f]{6}$/.test(v) ? v : null; };
  const update = () => {
    for (const name of ['primaryColor', 'accentColor']) {
      const colour = hex(form.elements[name].value);
      const out = document.getElementById(name + '-contrast');
      if (!colour) { out.textContent = 'not a hex colour'; continue; }
      const white = ratio(colour, '#ffffff'), black = ratio(colour, '#000000');
      out.textContent = 'contrast ' + white.toFixed(2) + ':1 on white, ' + black.toFixed(2) + ':1 with black text' + (white < 3 ? ' — too light for a white page (needs 3:1)' : '');
      preview.style.setProperty('--' + name, colour);
      preview.style.setProperty('--' + name + 'Text', white >= black ? '#ffffff' : '#000000');
    }
    document.getElementById('preview-name').textContent = form.elements.displayName.value;
  };
  const readFile = (input, target) => input.addEventListener('change', () => {
    const file = input.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      form.elements[target].value = String(reader.result).split(',')[1] || '';
      if (target === 'logoBase64') document.getElementById('preview-logo').src = reader.result;
    };
    reader.readAsDataURL(file);
  });
  readFile(document.getElementById('logoFile'), 'logoBase64');
  readFile(document.getElementById('faviconFile'), 'faviconBase64');
  form.addEventListener('input', update);
  update();
})();`;

function notEntitledPage(input: RouteInput, status: number): Reply {
  return page(
    input,
    { title: 'Whitelabel branding', status },
    html`<h1>Whitelabel branding</h1>
      <div class="card" data-testid="not-entitled">
        <p>
          Whitelabel branding and custom frontend builds are part of the <strong>enterprise whitelabel</strong> entitlement
          (<code>enterprise-whitelabel</code>), which your organisation does not have yet.
        </p>
        <p>
          With it you set your own name, colours, logo and favicon, build your own finance web client and mobile packages, and every compose manifest of your
          licences deploys your branded frontend.
        </p>
        <p>To get it, ask your vendor's account manager to add <code>enterprise-whitelabel</code> to your organisation.</p>
      </div>
      <p><a href="/workspace/">← Back to your licences</a></p>`,
  );
}

type Build = BrandingData['builds'][number];
const BUILD_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;

const buildBadge = (status: string) => (status === 'succeeded' ? 'ok' : status === 'failed' ? 'bad' : 'warn');

/** The builds: the kit's list (search, a filter by status, paging, CSV export). */
const BUILDS_LIST: ListSpec<Build> = {
  title: 'Custom frontend builds',
  path: '/workspace/branding/',
  filename: 'builds',
  empty: 'No builds yet.',
  searchable: (b) => [b.status, `v${b.brandingVersion}`, b.error],
  filters: [{ name: 'status', label: 'Status', options: BUILD_STATES.map((s) => ({ value: s, label: s })), matches: (b, v) => b.status === v }],
  columns: [
    { label: 'Started', cell: (b) => html`<a href="/workspace/builds/${b.id}/">${when(b.createdAt)}</a>`, csv: (b) => b.createdAt },
    { label: 'Branding', cell: (b) => `v${b.brandingVersion}` },
    {
      label: 'Status',
      cell: (b) => html`<span class="badge ${buildBadge(b.status)}">${b.status}</span> ${b.progress}%`,
      csv: (b) => `${b.status} ${b.progress}%`,
    },
    { label: 'Why it failed', cell: (b) => b.error ?? '' },
  ],
};

type BrandingValues = Record<'displayName' | 'primaryColor' | 'accentColor' | 'logoUrl' | 'faviconUrl' | 'publicUrl', string>;

/** The branding form and its live preview. */
function brandingForm(v: BrandingValues, input: RouteInput): Raw {
  return html`<div class="card" style="display:flex;flex-wrap:wrap;gap:24px">
    <form id="branding-form" method="post" action="/workspace/branding/" style="flex:1 1 320px">
      ${csrfInput(input.csrfToken)}
      <label for="displayName">Display name</label><input type="text" id="displayName" name="displayName" maxlength="80" required value="${v.displayName}" />
      <label for="primaryColor">Primary colour (hex)</label
      ><input type="text" id="primaryColor" name="primaryColor" required value="${v.primaryColor}" aria-describedby="primaryColor-contrast" />
      <div id="primaryColor-contrast" class="muted" aria-live="polite"></div>
      <label for="accentColor">Accent colour (hex)</label
      ><input type="text" id="accentColor" name="accentColor" required value="${v.accentColor}" aria-describedby="accentColor-contrast" />
      <div id="accentColor-contrast" class="muted" aria-live="polite"></div>
      <label for="logoUrl">Logo URL (fetched once; PNG, JPEG, GIF, WebP or ICO, up to 2 MB)</label
      ><input type="url" id="logoUrl" name="logoUrl" value="${v.logoUrl}" /> <label for="logoFile">…or upload a logo</label
      ><input type="file" id="logoFile" accept="image/png,image/jpeg,image/gif,image/webp,image/x-icon" />
      <input type="hidden" name="logoBase64" value="" />
      <label for="faviconUrl">Favicon URL (up to 500 kB)</label><input type="url" id="faviconUrl" name="faviconUrl" value="${v.faviconUrl}" />
      <label for="faviconFile">…or upload a favicon</label><input type="file" id="faviconFile" accept="image/png,image/x-icon,image/gif" />
      <input type="hidden" name="faviconBase64" value="" />
      <label for="publicUrl">Your finance node's public address (https; the Android and iOS apps open it)</label
      ><input type="url" id="publicUrl" name="publicUrl" placeholder="https://wallet.example.com/app/" value="${v.publicUrl}" />
      <button type="submit" class="primary">Save branding</button>
    </form>
    <div id="preview" aria-label="Live preview" style="flex:1 1 280px;border:1px solid #d9e2ec;border-radius:6px;overflow:hidden">
      <div style="background:var(--primaryColor);color:var(--primaryColorText);padding:12px;display:flex;gap:8px;align-items:center">
        <img id="preview-logo" alt="" style="max-height:32px" src="data:," /><strong id="preview-name"></strong>
      </div>
      <div style="padding:16px">
        <p>Balance <strong>1,250.00 EUR</strong></p>
        <button type="button" style="background:var(--primaryColor);color:var(--primaryColorText);border:0;border-radius:4px;padding:8px 12px">
          Send money
        </button>
        <button type="button" style="background:var(--accentColor);color:var(--accentColorText);border:0;border-radius:4px;padding:8px 12px">Top up</button>
        <p><a href="#" style="color:var(--accentColor)">A link in the accent colour</a></p>
      </div>
    </div>
  </div>`;
}

function currentVersion(current: BrandingData['branding'][number] | undefined): Raw | '' {
  return current
    ? html`<p class="muted" data-testid="branding-version">
        Current: version ${current.version}, saved ${when(current.createdAt)} by
        ${current.createdBy}${
          current.logo ? html` · logo ${current.logo.contentType}, ${current.logo.size} bytes` : ''
        }${current.favicon ? html` · favicon ${current.favicon.contentType}, ${current.favicon.size} bytes` : ''}
      </p>`
    : '';
}

function brandingPage(d: BrandingData, input: RouteInput, opts: { status?: number; message?: string; values?: BrandingValues } = {}): Reply {
  const current = d.branding[0];
  const v = opts.values ?? {
    displayName: current?.displayName ?? d.account.organisation.name,
    primaryColor: current?.primaryColor ?? '#0b5cad',
    accentColor: current?.accentColor ?? '#8e2c9a',
    logoUrl: current?.logoUrl ?? '',
    faviconUrl: current?.faviconUrl ?? '',
    publicUrl: current?.publicUrl ?? '',
  };
  const builds = listView(BUILDS_LIST, d.builds, input);
  if (builds.kind === 'file') return builds.reply;
  return page(
    input,
    {
      title: 'Branding',
      status: opts.status,
      user: userOf(d.account),
      banners: [...(opts.message ? [{ level: 'error' as const, text: opts.message }] : []), ...flash(input, 'saved', (n) => `Branding version ${n} saved.`)],
    },
    html`<h1>Whitelabel branding</h1>
      ${brandingForm(v, input)} ${currentVersion(current)}
      <section class="card" aria-labelledby="builds">
        <h2 id="builds">Custom frontend builds</h2>
        <p>
          A build bakes the current branding into the finance web client and the Android and iOS packages. When it succeeds, the compose manifests of your
          licences deploy it in place of the generic frontend.
        </p>
        <form method="post" action="/workspace/builds/">
          ${csrfInput(input.csrfToken)}<button type="submit" class="primary" ${current ? '' : raw('disabled')}>Build my frontend</button>
        </form>
        ${builds.body}
      </section>
      <script>
        ${raw(PREVIEW_SCRIPT)};
      </script>`,
  );
}

const brandingQuery = listQueryWith({ status: BUILD_STATES });

/** The build's page: its packages (the schema lets a frontend's image and image id be null). */
type BuildData = ResultOf<'WorkspaceBuild'>;

function buildPage(d: BuildData, input: RouteInput): Reply {
  const b = d.build;
  const running = b.status === 'queued' || b.status === 'running';
  const pkg = (which: string, label: string, p: { filename: string; size: number; sha256: string } | null, extra?: Raw) =>
    p
      ? html`<li>
          <a href="/workspace/builds/${b.id}/${which}" data-testid="package-${which}">${label}: ${p.filename}</a>
          (${megabytes(p.size)})${extra ?? ''}<br /><span class="muted">SHA-256 <code>${p.sha256}</code></span>
        </li>`
      : '';
  return page(
    input,
    {
      title: 'Frontend build',
      user: userOf(d.account),
      // the page follows a running build by reloading itself; no script needed
      head: running ? html`<meta http-equiv="refresh" content="2" />` : undefined,
    },
    html`<h1>Frontend build</h1>
      <div class="card">
        <p>
          Status <span class="badge ${b.status === 'succeeded' ? 'ok' : b.status === 'failed' ? 'bad' : 'warn'}" data-testid="build-status">${b.status}</span> ·
          branding version ${b.brandingVersion} · started ${when(b.createdAt)}${b.finishedAt ? html` · finished ${when(b.finishedAt)}` : ''}
        </p>
        <div class="progress" role="progressbar" aria-label="Build progress" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${b.progress}">
          <div style="width:${b.progress}%"></div>
        </div>
        ${b.error ? html`<p class="banner error" role="alert" data-testid="build-error">${b.error}</p>` : ''}
        ${
          b.status === 'succeeded'
            ? html`<h2>Packages</h2>
                <ul>
                  ${pkg('frontend', 'Frontend image', b.frontend, b.frontend?.image ? html` · image <code>${b.frontend.image}</code>` : undefined)}
                  ${pkg('android', b.android?.kind === 'apk' ? 'Android APK' : 'Android project', b.android)} ${pkg('ios', 'iOS Xcode project', b.ios)}
                </ul>`
            : ''
        }
        <h2>Log</h2>
        <pre data-testid="build-log">${b.log.join('\n')}</pre>
      </div>
      <p><a href="/workspace/branding/">← Branding and builds</a></p>`,
  );
}

const brandingValues = (body: Record<string, unknown>) => ({
  displayName: str(body.displayName),
  primaryColor: str(body.primaryColor),
  accentColor: str(body.accentColor),
  logoUrl: str(body.logoUrl),
  faviconUrl: str(body.faviconUrl),
  publicUrl: str(body.publicUrl),
});

export const brandingPages: Route<WorkspaceSecurity>[] = [
  route({
    method: 'GET',
    path: '/workspace/branding/',
    documented: false,
    summary: 'Workspace: whitelabel branding and builds',
    description: 'Without the enterprise-whitelabel entitlement: 403 with a page explaining how to get it.',
    ...SIGNED_IN,
    operation: 'WorkspaceBrandingPage',
    query: brandingQuery,
    response: { description: 'The branding form with its live preview, and the builds (HTML)', contentType: 'text/html' },
    respond: (data, input) => brandingPage(data, input),
    respondError: (error, input) => (error.code === 'NOT_ENTITLED' ? notEntitledPage(input, 403) : pageError('Branding')(error, input)),
  }),
  route({
    method: 'POST',
    path: '/workspace/branding/',
    documented: false,
    summary: 'Workspace: save the branding (a new version)',
    ...SIGNED_IN,
    operation: 'WorkspaceSaveBranding',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({
      input: { ...brandingValues(body), logoBase64: str(body.logoBase64) || null, faviconBase64: str(body.faviconBase64) || null },
    }),
    response: { status: 303, description: 'Saved: back to the branding page' },
    respond: (data) => ({ kind: 'redirect', status: 303, location: `/workspace/branding/?saved=${data.branding.version}` }),
    respondError: (error, input) => {
      if (error.status === 401) return toLogin();
      if (error.code === 'NOT_ENTITLED') return notEntitledPage(input, 403);
      const account = { email: '', organisation: { name: '' } };
      // the form again, with what was typed and why it was refused
      return brandingPage({ account, branding: [], builds: [] }, input, {
        status: error.status,
        message: error.message,
        values: brandingValues(input.req.body as Record<string, unknown>),
      });
    },
  }),
  route({
    method: 'POST',
    path: '/workspace/builds/',
    documented: false,
    summary: 'Workspace: build the branded frontend and mobile packages',
    ...SIGNED_IN,
    operation: 'WorkspaceRequestBuild',
    consumes: 'form',
    csrf: true,
    body: form,
    response: { status: 303, description: 'Queued: to the build’s page' },
    respond: (data) => ({ kind: 'redirect', status: 303, location: `/workspace/builds/${data.build.id}/` }),
    respondError: (error, input) => (error.code === 'NOT_ENTITLED' ? notEntitledPage(input, 403) : pageError('Frontend build')(error, input)),
  }),
  route({
    method: 'GET',
    path: '/workspace/builds/:buildId/',
    documented: false,
    summary: 'Workspace: a build’s status, progress, log and packages',
    ...SIGNED_IN,
    operation: 'WorkspaceBuild',
    params: z.object({ buildId: uuid }),
    variables: ({ params }: Input<{ buildId: string }>) => ({ id: params.buildId }),
    response: { description: 'The build (HTML; reloads itself while it runs)', contentType: 'text/html' },
    respond: (data, input) => buildPage(data, input),
    respondError: pageError('Frontend build'),
  }),
  route({
    method: 'GET',
    path: '/workspace/builds/:buildId/:package',
    documented: false,
    summary: 'Workspace: download a package of a build (frontend, android, ios)',
    ...SIGNED_IN,
    operation: 'WorkspaceBuildPackage',
    params: z.object({ buildId: uuid, package: z.enum(['frontend', 'android', 'ios']) }),
    variables: (input: Input<{ buildId: string; package: BuildPackage }>) => ({
      buildId: input.params.buildId,
      package: input.params.package,
      baseUrl: baseUrl(input),
    }),
    respond: (data) => ({ kind: 'redirect', status: 302, location: data.url }),
    respondError: pageError('Download'),
    response: { status: 302, description: 'Redirect to the presigned link' },
  }),
];

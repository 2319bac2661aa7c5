import { z } from 'zod';
import { cookieValue } from '../../../lib/credentials';
import { html, raw, type Raw } from '../../../lib/html';
import { renderMarkdown } from '../../../lib/markdown';
import { licenceKeyCredential, WORKSPACE_SESSION_COOKIE, workspaceSessionCredential } from '../../../subgraphs/registry/licensing/credential';
import type { AnyRouteInput as RouteInput, Reply, Route, RouteError, RouteInput as Input } from '../../core/route';
import { csrfInput, workspacePage, type WorkspacePageOptions } from './layout';

/**
 * The customer workspace at /workspace/ (docs/contracts/licence-registry.md §1): organisation users sign in
 * (session cookie `workspace_session`, HttpOnly, SameSite=Lax, path /workspace/; every form carries
 * the CSRF token), see their licences, deployments and releases, download artifacts through
 * presigned links the session authorises (§5.3), read the compose manifest of each release, and,
 * with the enterprise-whitelabel entitlement, brand and build their own frontend. Every page is a
 * persisted operation run as the signed-in user.
 */

export type WorkspaceSecurity = 'workspaceSession' | 'none';

const SESSION = [workspaceSessionCredential] as const;
const COOKIE_PATH = '/workspace/';
const TAGS = ['Workspace'];

/** A form's fields as the body parser gives them. */
type FormBody = Record<string, string | string[]>;
const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '');
const uuid = z.string().regex(/^[0-9a-f-]{36}$/i);
const pageQuery = z.object({ saved: z.string().optional(), token: z.string().optional(), password: z.string().optional() });

const baseUrl = ({ req, config }: RouteInput) => (config.PUBLIC_URL_REGISTRY ? null : `${req.protocol}://${req.get('host')}`);
const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : '—');
const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

interface Account {
  email: string;
  name?: string;
  organisation: { name: string; entitlements?: string[] };
}

const userOf = (account: Account) => ({ email: account.email, organisation: account.organisation.name });

function page(input: RouteInput, opts: Omit<WorkspacePageOptions, 'csrfToken'> & { status?: number }, body: Raw): Reply {
  return { kind: 'html', status: opts.status, html: workspacePage({ ...opts, csrfToken: input.csrfToken }, body) };
}

const toLogin = (): Reply => ({ kind: 'redirect', status: 302, location: '/workspace/login/' });

/** A page's failure: not signed in → the sign-in page; anything else on a page of its own. */
function pageError(title: string) {
  return (error: RouteError, input: RouteInput): Reply => {
    if (error.status === 401) return toLogin();
    return page(
      input,
      { title, status: error.status, banners: [{ level: 'error', text: error.message }] },
      html`<p><a href="/workspace/">← Back to the workspace</a></p>`,
    );
  };
}

// ---- sign-in, sign-out, passwords ----

function loginPage(input: RouteInput, opts: { status?: number; message?: string; email?: string; notice?: string }): Reply {
  return page(
    input,
    {
      title: 'Sign in',
      status: opts.status,
      banners: [
        ...(opts.message ? [{ level: 'error' as const, text: opts.message }] : []),
        ...(opts.notice ? [{ level: 'ok' as const, text: opts.notice }] : []),
      ],
    },
    html`<div class="login card">
      <h1>Sign in to your workspace</h1>
      <form method="post" action="/workspace/login/">
        ${csrfInput(input.csrfToken)}
        <label for="email">E-mail address</label>
        <input type="email" id="email" name="email" autocomplete="username" required autofocus value="${opts.email ?? ''}" />
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit" class="primary">Sign in</button>
      </form>
      <p class="muted"><a href="/workspace/password-reset/">Forgot your password?</a></p>
    </div>`,
  );
}

function passwordPage(input: RouteInput, token: string, message?: string, status?: number): Reply {
  return page(
    input,
    { title: 'Choose a password', status, banners: message ? [{ level: 'error', text: message }] : [] },
    html`<div class="login card">
      <h1>Choose your password</h1>
      <form method="post" action="/workspace/password/">
        ${csrfInput(input.csrfToken)}<input type="hidden" name="token" value="${token}" />
        <label for="password">New password (at least 10 characters)</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="10" required />
        <button type="submit" class="primary">Set password</button>
      </form>
    </div>`,
  );
}

function resetPage(input: RouteInput, notice?: string): Reply {
  return page(
    input,
    { title: 'Reset your password', banners: notice ? [{ level: 'ok', text: notice }] : [] },
    html`<div class="login card">
      <h1>Reset your password</h1>
      <form method="post" action="/workspace/password-reset/">
        ${csrfInput(input.csrfToken)}
        <label for="email">E-mail address</label>
        <input type="email" id="email" name="email" autocomplete="username" required />
        <button type="submit" class="primary">Mail me a link</button>
      </form>
    </div>`,
  );
}

const clearSession = { name: WORKSPACE_SESSION_COOKIE, value: '', maxAgeSeconds: 0, path: COOKIE_PATH };

// ---- licences and deployments ----

interface HomeData {
  account: Account & { role: string };
  licences: { id: string; key: string; status: string; product: string; plan: string; maxNodes: number; nodesInUse: number; maintenanceUntil: string }[];
  deployments: {
    id: string;
    licenceId: string;
    hostname: string;
    ipAddress: string;
    currentVersion: string;
    status: string;
    lastHeartbeatAt: string;
    reportedStatus: string | null;
    uptimeSeconds: number | null;
  }[];
}

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

function home(d: HomeData, input: RouteInput): Reply {
  const licenceRows = d.licences.map(
    (l) =>
      html`<tr>
        <td>
          <code id="key-${l.id}">${l.key}</code><br /><button type="button" class="small" data-reveal="${l.id}">Reveal</button>
          <button type="button" class="small" data-copy="${l.id}">Copy</button>
        </td>
        <td><span class="badge ${l.status === 'Active' ? 'ok' : 'bad'}" data-testid="licence-status">${l.status}</span></td>
        <td>${l.product} · ${l.plan}</td>
        <td>${l.maintenanceUntil}</td>
        <td data-testid="nodes">${l.nodesInUse} / ${l.maxNodes}</td>
        <td><a href="/workspace/licences/${l.id}/releases/">Updates &amp; releases</a></td>
      </tr>`,
  );
  const deploymentRows = d.deployments.map(
    (n) =>
      html`<tr>
        <td>${n.hostname}<br /><span class="muted">${n.ipAddress}</span></td>
        <td><span class="badge ${n.status === 'alive' ? 'ok' : 'bad'}">${n.status}</span></td>
        <td>${n.currentVersion}</td>
        <td>${when(n.lastHeartbeatAt)}</td>
        <td>${n.reportedStatus ?? '—'}${n.uptimeSeconds !== null ? html`, up ${Math.round(n.uptimeSeconds / 3600)} h` : ''}</td>
        <td class="muted">${d.licences.find((l) => l.id === n.licenceId)?.key ?? ''}</td>
        <td>
          <form method="post" action="/workspace/deployments/${n.id}/release/">
            ${csrfInput(input.csrfToken)}<button type="submit" class="small" data-testid="release-seat">Release seat</button>
          </form>
        </td>
      </tr>`,
  );
  return page(
    input,
    {
      title: 'Licences',
      user: userOf(d.account),
      banners: (input.query as { released?: string }).released
        ? [{ level: 'ok' as const, text: `The seat of ${(input.query as { released: string }).released} is free.` }]
        : [],
    },
    html`<h1>${d.account.organisation.name}</h1>
      <section class="card" aria-labelledby="licences">
        <h2 id="licences">Licences</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Product · plan</th>
              <th scope="col">Maintenance until</th>
              <th scope="col">Nodes used / cap</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            ${
              licenceRows.length
                ? licenceRows
                : html`<tr>
                    <td colspan="6">No licences yet.</td>
                  </tr>`
            }
          </tbody>
        </table>
      </section>
      <section class="card" aria-labelledby="deployments">
        <h2 id="deployments">Deployments</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">State</th>
              <th scope="col">Version</th>
              <th scope="col">Last heartbeat</th>
              <th scope="col">Metrics</th>
              <th scope="col">Licence</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            ${
              deploymentRows.length
                ? deploymentRows
                : html`<tr>
                    <td colspan="7">No node has registered yet.</td>
                  </tr>`
            }
          </tbody>
        </table>
      </section>
      <script>
        ${raw(KEY_SCRIPT)};
      </script>`,
  );
}

// ---- releases ----

interface ReleasesData {
  account: Account;
  releases: {
    id: string;
    version: string;
    channel: string;
    changelog: string;
    publishedAt: string;
    maintenanceCovered: boolean;
    artifacts: { id: string; component: string; filename: string; size: number; sha256: string }[];
  }[];
}

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
                        <a href="/workspace/licences/${licenceId}/artifacts/${a.id}/download">${a.filename}</a> (${a.component}, ${megabytes(a.size)})<br /><span
                          class="muted"
                          >SHA-256 <code>${a.sha256}</code></span
                        >
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

// ---- branding and builds ----

interface BrandingData {
  account: Account;
  branding: {
    version: number;
    displayName: string;
    primaryColor: string;
    accentColor: string;
    logoUrl: string | null;
    logo: { contentType: string; size: number } | null;
    faviconUrl: string | null;
    favicon: { contentType: string; size: number } | null;
    publicUrl: string | null;
    primaryContrast: { againstWhite: number; againstBlack: number; textColour: string };
    accentContrast: { againstWhite: number; againstBlack: number; textColour: string };
    createdAt: string;
    createdBy: string;
  }[];
  builds: { id: string; brandingVersion: number; status: string; progress: number; error: string | null; createdAt: string; finishedAt: string | null }[];
}

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

function brandingPage(d: BrandingData, input: RouteInput, opts: { status?: number; message?: string; values?: Record<string, string> } = {}): Reply {
  const current = d.branding[0];
  const v = opts.values ?? {
    displayName: current?.displayName ?? d.account.organisation.name,
    primaryColor: current?.primaryColor ?? '#0b5cad',
    accentColor: current?.accentColor ?? '#8e2c9a',
    logoUrl: current?.logoUrl ?? '',
    faviconUrl: current?.faviconUrl ?? '',
    publicUrl: current?.publicUrl ?? '',
  };
  const saved = (input.query as { saved?: string }).saved;
  const builds = d.builds.map(
    (b) =>
      html`<tr>
        <td><a href="/workspace/builds/${b.id}/">${when(b.createdAt)}</a></td>
        <td>v${b.brandingVersion}</td>
        <td><span class="badge ${b.status === 'succeeded' ? 'ok' : b.status === 'failed' ? 'bad' : 'warn'}">${b.status}</span> ${b.progress}%</td>
        <td>${b.error ?? ''}</td>
      </tr>`,
  );
  return page(
    input,
    {
      title: 'Branding',
      status: opts.status,
      user: userOf(d.account),
      banners: [
        ...(opts.message ? [{ level: 'error' as const, text: opts.message }] : []),
        ...(saved ? [{ level: 'ok' as const, text: `Branding version ${saved} saved.` }] : []),
      ],
    },
    html`<h1>Whitelabel branding</h1>
      <div class="card" style="display:flex;flex-wrap:wrap;gap:24px">
        <form id="branding-form" method="post" action="/workspace/branding/" style="flex:1 1 320px">
          ${csrfInput(input.csrfToken)}
          <label for="displayName">Display name</label
          ><input type="text" id="displayName" name="displayName" maxlength="80" required value="${v.displayName}" />
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
      </div>
      ${
        current
          ? html`<p class="muted" data-testid="branding-version">
              Current: version ${current.version}, saved ${when(current.createdAt)} by
              ${current.createdBy}${
                current.logo ? html` · logo ${current.logo.contentType}, ${current.logo.size} bytes` : ''
              }${current.favicon ? html` · favicon ${current.favicon.contentType}, ${current.favicon.size} bytes` : ''}
            </p>`
          : ''
      }
      <section class="card" aria-labelledby="builds">
        <h2 id="builds">Custom frontend builds</h2>
        <p>
          A build bakes the current branding into the finance web client and the Android and iOS packages. When it succeeds, the compose manifests of your
          licences deploy it in place of the generic frontend.
        </p>
        <form method="post" action="/workspace/builds/">
          ${csrfInput(input.csrfToken)}<button type="submit" class="primary" ${current ? '' : raw('disabled')}>Build my frontend</button>
        </form>
        <table>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Branding</th>
              <th scope="col">Status</th>
              <th scope="col">Why it failed</th>
            </tr>
          </thead>
          <tbody>
            ${
              builds.length
                ? builds
                : html`<tr>
                    <td colspan="4">No builds yet.</td>
                  </tr>`
            }
          </tbody>
        </table>
      </section>
      <script>
        ${raw(PREVIEW_SCRIPT)};
      </script>`,
  );
}

interface BuildData {
  account: Account;
  build: {
    id: string;
    brandingVersion: number;
    status: string;
    progress: number;
    log: string[];
    error: string | null;
    frontend: { filename: string; size: number; sha256: string; image: string; imageId: string } | null;
    android: { filename: string; size: number; sha256: string; kind: string } | null;
    ios: { filename: string; size: number; sha256: string } | null;
    createdAt: string;
    finishedAt: string | null;
  };
}

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
                  ${pkg('frontend', 'Frontend image', b.frontend, b.frontend ? html` · image <code>${b.frontend.image}</code>` : undefined)}
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

/** The pages of a signed-in user: the session cookie only (a licence key means nothing here). */
const SIGNED_IN = { security: 'workspaceSession' as const, credentials: SESSION, tags: TAGS };

/**
 * The workspace's routes. Its pages (`/workspace/…`) are a browser application, not the API: each says
 * `documented: false` (left out of the registry's API document and its conformance replay).
 */
export const workspaceRoutes: Route<WorkspaceSecurity | 'licenceKey'>[] = [
  {
    method: 'GET',
    path: '/api/v1/custom-frontends/:buildId/download',
    summary: "Download the organisation's custom frontend: 302 to a presigned link",
    description:
      'The compose manifest of an organisation with a succeeded whitelabel build names its custom frontend archive here, in place of the ' +
      "generic frontend artifact. Licence key of one of the organisation's licences; another organisation's build: 404.",
    tags: ['Artifacts'],
    security: 'licenceKey',
    credentials: [licenceKeyCredential],
    operation: 'CustomFrontendDownload',
    params: z.object({ buildId: uuid }),
    variables: (input: Input<{ buildId: string }>) => ({ buildId: input.params.buildId, baseUrl: baseUrl(input) }),
    respond: (data: { url: string }) => ({ kind: 'redirect', status: 302, location: data.url }),
    response: { status: 302, description: 'Redirect to the presigned link', headers: { Location: 'Presigned object-storage URL' } },
    errors: [404, 409],
  },
  {
    method: 'GET',
    path: '/workspace/login/',
    documented: false,
    summary: 'Workspace: sign-in page',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspaceLoginPage',
    query: pageQuery,
    reply: (input) => loginPage(input, { notice: (input.query as { password?: string }).password ? 'Your password is set; sign in.' : undefined }),
    response: { description: 'The sign-in form (HTML)', contentType: 'text/html' },
  },
  {
    method: 'POST',
    path: '/workspace/login/',
    documented: false,
    summary: 'Workspace: sign in',
    description:
      'Form fields email, password and csrfmiddlewaretoken. Sets the session cookie `workspace_session` (HttpOnly, SameSite=Lax, path /workspace/) and redirects to /workspace/. Failed sign-ins are throttled per address (429 after 5 in 15 minutes).',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSignIn',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ email: str(body.email), password: str(body.password) }),
    response: { status: 302, description: 'Signed in: redirect to the workspace' },
    respond: (data: { signInWorkspace: { session: string; expiresAt: string } }) => ({
      kind: 'redirect',
      status: 302,
      location: '/workspace/',
      cookies: [
        {
          name: WORKSPACE_SESSION_COOKIE,
          value: data.signInWorkspace.session,
          maxAgeSeconds: Math.max(0, Math.floor((Date.parse(data.signInWorkspace.expiresAt) - Date.now()) / 1000)),
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ],
    }),
    respondError: (error, input) =>
      loginPage(input, {
        status: error.status,
        message: error.status === 401 ? 'E-mail address or password is not correct.' : error.message,
        email: str((input.req.body as Record<string, unknown> | undefined)?.email),
      }),
  },
  {
    method: 'POST',
    path: '/workspace/logout/',
    documented: false,
    summary: 'Workspace: sign out',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSignOut',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ req }: RouteInput) => ({ session: cookieValue(req.headers.cookie, WORKSPACE_SESSION_COOKIE) ?? '' }),
    response: { status: 302, description: 'Signed out' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/', cookies: [clearSession] }),
    respondError: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/', cookies: [clearSession] }),
  },
  {
    method: 'GET',
    path: '/workspace/password/',
    documented: false,
    summary: 'Workspace: choose a password (invitation or reset link)',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspacePasswordPage',
    query: pageQuery,
    reply: (input) => passwordPage(input, (input.query as { token?: string }).token ?? ''),
    response: { description: 'The password form (HTML)', contentType: 'text/html' },
  },
  {
    method: 'POST',
    path: '/workspace/password/',
    documented: false,
    summary: 'Workspace: set the password of an invitation or reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSetPassword',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ token: str(body.token), password: str(body.password) }),
    response: { status: 302, description: 'Password set: redirect to sign-in' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/?password=set' }),
    respondError: (error, input) => passwordPage(input, str((input.req.body as Record<string, unknown>).token), error.message, error.status),
  },
  {
    method: 'GET',
    path: '/workspace/password-reset/',
    documented: false,
    summary: 'Workspace: ask for a password reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspacePasswordResetPage',
    reply: (input) => resetPage(input),
    response: { description: 'The reset form (HTML)', contentType: 'text/html' },
  },
  {
    method: 'POST',
    path: '/workspace/password-reset/',
    documented: false,
    summary: 'Workspace: mail a password reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceRequestPasswordReset',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ email: str(body.email) }),
    response: { description: 'The same answer whether or not the address has an account (HTML)', contentType: 'text/html' },
    respond: (_data, input) => resetPage(input, 'If this address has an account, a link to choose a new password is on its way.'),
    respondError: pageError('Reset your password'),
  },
  {
    method: 'GET',
    path: '/workspace/',
    documented: false,
    summary: 'Workspace: licences and deployments',
    ...SIGNED_IN,
    operation: 'WorkspaceHome',
    response: {
      description: 'Licences (key masked, reveal and copy), status, maintenance end, nodes used / cap; deployments (HTML)',
      contentType: 'text/html',
    },
    respond: (data: HomeData, input) => home(data, input),
    respondError: pageError('Licences'),
  },
  {
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
    respond: (data: { key: string }) => ({ kind: 'json', body: { key: data.key }, headers: { 'cache-control': 'no-store' } }),
    response: { description: 'The full key' },
    errors: [403, 404],
  },
  {
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
    respond: (data: { released: { hostname: string } }) => ({
      kind: 'redirect',
      status: 303,
      location: `/workspace/?released=${encodeURIComponent(data.released.hostname)}`,
    }),
    respondError: pageError('Licences'),
    response: { description: 'Back to the licences and deployments' },
    errors: [403, 404],
  },
  {
    method: 'GET',
    path: '/workspace/licences/:licenceId/releases/',
    documented: false,
    summary: 'Workspace: updates and releases of a licence',
    ...SIGNED_IN,
    operation: 'WorkspaceReleases',
    params: z.object({ licenceId: uuid }),
    variables: (input: Input<{ licenceId: string }>) => ({ licenceId: input.params.licenceId, baseUrl: baseUrl(input) }),
    response: { description: 'Releases with their changelogs, maintenance coverage, downloads and manifests (HTML)', contentType: 'text/html' },
    respond: (data: ReleasesData, input) => releases(data, input),
    respondError: pageError('Updates and releases'),
  },
  {
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
    respond: (data: { manifest: { content: string; contentType: string; filename: string } }) => ({
      kind: 'file',
      body: data.manifest.content,
      contentType: data.manifest.contentType,
      filename: data.manifest.filename,
    }),
    respondError: pageError('Compose manifest'),
    response: { description: 'The manifest file', contentType: 'application/yaml' },
  },
  {
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
    respond: (data: { download: { url: string } }) => ({ kind: 'redirect', status: 302, location: data.download.url }),
    respondError: pageError('Download'),
    response: { status: 302, description: 'Redirect to the presigned link' },
  },
  {
    method: 'GET',
    path: '/workspace/branding/',
    documented: false,
    summary: 'Workspace: whitelabel branding and builds',
    description: 'Without the enterprise-whitelabel entitlement: 403 with a page explaining how to get it.',
    ...SIGNED_IN,
    operation: 'WorkspaceBrandingPage',
    query: pageQuery,
    response: { description: 'The branding form with its live preview, and the builds (HTML)', contentType: 'text/html' },
    respond: (data: BrandingData, input) => brandingPage(data, input),
    respondError: (error, input) => (error.code === 'NOT_ENTITLED' ? notEntitledPage(input, 403) : pageError('Branding')(error, input)),
  },
  {
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
    respond: (data: { branding: { version: number } }) => ({ kind: 'redirect', status: 303, location: `/workspace/branding/?saved=${data.branding.version}` }),
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
  },
  {
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
    respond: (data: { build: { id: string } }) => ({ kind: 'redirect', status: 303, location: `/workspace/builds/${data.build.id}/` }),
    respondError: (error, input) => (error.code === 'NOT_ENTITLED' ? notEntitledPage(input, 403) : pageError('Frontend build')(error, input)),
  },
  {
    method: 'GET',
    path: '/workspace/builds/:buildId/',
    documented: false,
    summary: 'Workspace: a build’s status, progress, log and packages',
    ...SIGNED_IN,
    operation: 'WorkspaceBuild',
    params: z.object({ buildId: uuid }),
    variables: ({ params }: Input<{ buildId: string }>) => ({ id: params.buildId }),
    response: { description: 'The build (HTML; reloads itself while it runs)', contentType: 'text/html' },
    respond: (data: BuildData, input) => buildPage(data, input),
    respondError: pageError('Frontend build'),
  },
  {
    method: 'GET',
    path: '/workspace/builds/:buildId/:package',
    documented: false,
    summary: 'Workspace: download a package of a build (frontend, android, ios)',
    ...SIGNED_IN,
    operation: 'WorkspaceBuildPackage',
    params: z.object({ buildId: uuid, package: z.enum(['frontend', 'android', 'ios']) }),
    variables: (input: Input<{ buildId: string; package: string }>) => ({
      buildId: input.params.buildId,
      package: input.params.package,
      baseUrl: baseUrl(input),
    }),
    respond: (data: { url: string }) => ({ kind: 'redirect', status: 302, location: data.url }),
    respondError: pageError('Download'),
    response: { status: 302, description: 'Redirect to the presigned link' },
  },
];

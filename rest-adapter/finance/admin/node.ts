import { z } from 'zod';
import { html } from '../../../lib/html';
import { BROKERAGE_LABELS, PROVIDER_CREDENTIALS, TOGGLES } from '../../../subgraphs/finance/kernel/contract';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { adminError, adminQuery, appList, form, page, postRedirect, readOnlyBanner, saved, str, userOf } from './apps';
import { csrfInput, table, when } from './layout';
import { logoSection, logoUploadRoute } from './logo';
import { route, type ResultOf } from '../operation';
import type { AdminNodeSettingsFieldsFragment } from '../operations/types.generated';

/** The node app of the console: the settings record, branding, licence, provider credentials and activity log. */

/** The node's settings looked up by the contract's field names (TOGGLES, plain strings): a field the fragment does not select reads undefined. */
export const settingsByField = (
  s: AdminNodeSettingsFieldsFragment,
): Readonly<Partial<Record<string, AdminNodeSettingsFieldsFragment[keyof AdminNodeSettingsFieldsFragment]>>> => s;

/** The settings editor's fields: the contract's sixteen toggles, in its order (GraphQL names; checkboxes for switches). */
export const SETTINGS_FIELDS = TOGGLES.map((t) => ({ field: t.field, label: t.label, help: t.controls, type: t.type }));
const BROKERS = Object.entries(BROKERAGE_LABELS);

const BRANDING_FIELDS: { field: BrandingTextField; label: string; type: string }[] = [
  { field: 'organisationName', label: 'Organisation name', type: 'text' },
  { field: 'legalEntity', label: 'Legal entity', type: 'text' },
  { field: 'faviconUrl', label: 'Favicon (URL or data:image URI)', type: 'text' },
  { field: 'colorPrimary', label: 'Primary colour', type: 'color' },
  { field: 'colorSecondary', label: 'Secondary colour', type: 'color' },
  { field: 'colorAccent', label: 'Accent colour', type: 'color' },
  { field: 'supportEmail', label: 'Support e-mail', type: 'email' },
  { field: 'supportPhone', label: 'Support phone', type: 'text' },
  { field: 'termsUrl', label: 'Terms URL', type: 'url' },
  { field: 'privacyUrl', label: 'Privacy URL', type: 'url' },
];

function settingsForm(d: ResultOf<'AdminSettings'>, input: RouteInput): Reply {
  const s = settingsByField(d.nodeSettings);
  const rows = SETTINGS_FIELDS.map((f) => {
    const id = `id_${f.field}`;
    const control =
      f.type === 'boolean'
        ? html`<input type="checkbox" id="${id}" name="${f.field}" ${s[f.field] === true ? 'checked' : ''} />`
        : f.type === 'text'
          ? html`<textarea id="${id}" name="${f.field}" maxlength="500">${String(s[f.field] ?? '')}</textarea>`
          : html`<select id="${id}" name="${f.field}">
              ${BROKERS.map(([v, l]) => html`<option value="${v}" ${s[f.field] === v ? 'selected' : ''}>${l}</option>`)}
            </select>`;
    return html`<div class="row">
      <label class="name" for="${id}">${f.label}</label>
      <div>
        ${control}
        <div class="help">${f.help}</div>
      </div>
    </div>`;
  });
  return page(
    input,
    {
      title: 'Change settings record',
      user: userOf(input.req),
      breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Settings record' }],
      banners: [...saved(input, 'settings record'), ...readOnlyBanner(d.nodeInfo.readOnly)],
    },
    html`<h2 class="title">Change settings record</h2>
      <p>
        Last changed ${when(d.nodeSettings.updatedAt)}${d.nodeSettings.updatedBy ? html` by ${d.nodeSettings.updatedBy}` : ''}. Changes take effect at once, in
        every process.
      </p>
      <form method="post" class="aligned module" action="/admin/node/settings/">
        ${csrfInput(input.csrfToken)}
        <div class="body">${rows}</div>
        <div class="submit-row"><button type="submit" class="default" name="_save">Save</button></div>
      </form>`,
  );
}

type BrandingPageData = ResultOf<'AdminBranding'>;
/** The branding's text fields, the ones the form edits (the logo has its own section). */
type BrandingTextField = {
  [K in keyof BrandingPageData['nodeBranding']]: BrandingPageData['nodeBranding'][K] extends string ? K : never;
}[keyof BrandingPageData['nodeBranding']];

function brandingForm(d: BrandingPageData, input: RouteInput): Reply {
  const b = d.nodeBranding;
  return page(
    input,
    {
      title: 'Change branding',
      user: userOf(input.req),
      breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Branding' }],
      banners: [...saved(input, 'branding'), ...readOnlyBanner(d.nodeInfo.readOnly)],
    },
    html`<h2 class="title">Change branding</h2>
      ${logoSection(b, input.csrfToken)}
      <form method="post" class="aligned module" action="/admin/node/branding/">
        ${csrfInput(input.csrfToken)}
        <div class="body">
          ${BRANDING_FIELDS.map(
            (f) =>
              html`<div class="row">
                <label class="name" for="id_${f.field}">${f.label}</label>
                <div>
                  <input
                    type="${f.type === 'color' ? 'text' : f.type}"
                    id="id_${f.field}"
                    name="${f.field}"
                    value="${b[f.field]}"
                    ${f.type === 'color' ? html` pattern="#[0-9a-fA-F]{6}"` : ''}
                  />
                  ${f.type === 'color' ? html` <span style="display:inline-block;width:18px;height:18px;vertical-align:middle;border:1px solid #ccc;background:${b[f.field]}"></span>` : ''}
                </div>
              </div>`,
          )}
        </div>
        <div class="submit-row"><button type="submit" class="default">Save</button></div>
      </form>`,
  );
}

/** The licence page's two ways to install one: a licence key (activation by the registry), or a token and its public key. */
function licenceForms(input: RouteInput, registryUrl: string) {
  return html`<form method="post" class="aligned module" action="/admin/node/licence/activate/">
      ${csrfInput(input.csrfToken)}
      <h2>Activate with a licence key</h2>
      <div class="body">
        <div class="row">
          <label class="name" for="id_licence_key">Licence key</label>
          <div>
            <input
              id="id_licence_key"
              name="licence_key"
              required
              pattern="[A-Za-z0-9]{3}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}"
              placeholder="LIC-XXXX-XXXX-XXXX"
              autocomplete="off"
            />
            <div class="help">The key your vendor gave you. The node registers with the licence registry, fetches its signed licence and installs it.</div>
          </div>
        </div>
        <div class="row">
          <label class="name" for="id_registry_url">Licence registry</label>
          <div>
            <input id="id_registry_url" name="registry_url" type="url" value="${registryUrl}" placeholder="https://registry.example.com" />
            <div class="help">Its URL (https://). Empty: VENDOR_LICENSE_ENGINE_URL.</div>
          </div>
        </div>
      </div>
      <div class="submit-row"><button type="submit" class="default">Activate</button></div>
    </form>
    <form method="post" class="aligned module" action="/admin/node/licence/">
      ${csrfInput(input.csrfToken)}
      <h2>Or install a licence token and public key</h2>
      <div class="body">
        <div class="row">
          <label class="name" for="id_token">Licence token</label>
          <div>
            <textarea id="id_token" name="token" required></textarea>
            <div class="help">The Ed25519 JWT issued by the licence registry.</div>
          </div>
        </div>
        <div class="row">
          <label class="name" for="id_public_key">Public key</label>
          <div>
            <textarea id="id_public_key" name="public_key" required></textarea>
            <div class="help">PEM, one-line base64 SPKI, raw base64url or JWK.</div>
          </div>
        </div>
      </div>
      <div class="submit-row"><button type="submit" class="default">Install</button></div>
    </form>`;
}

/** The node app (/admin/node/…): settings record, branding, licence, provider credentials, activity log. */
export const nodeAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/node/settings/',
    summary: 'Admin console: the settings record editor',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSettings',
    query: adminQuery,
    response: { description: 'Editor (HTML)', contentType: 'text/html' },
    respond: (data, input) => settingsForm(data, input),
    respondError: adminError('Settings record'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/settings/',
    summary: 'Admin console: save the settings record',
    description: 'Allowed in licence read-only mode. Effective at once in every process.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUpdateSettings',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      input: Object.fromEntries(
        SETTINGS_FIELDS.map((f) => [f.field, f.type === 'boolean' ? str(body[f.field]) !== '' : body[f.field] === undefined ? undefined : str(body[f.field])]),
      ),
    }),
    response: { status: 302, description: 'Saved: back to the editor' },
    respond: () => postRedirect('/admin/node/settings/?saved=1'),
    respondError: adminError('Settings record'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/branding/',
    summary: 'Admin console: the branding editor',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminBranding',
    query: adminQuery,
    response: { description: 'Editor (HTML)', contentType: 'text/html' },
    respond: (data, input) => brandingForm(data, input),
    respondError: adminError('Branding'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/branding/',
    summary: 'Admin console: save the branding',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUpdateBranding',
    consumes: 'form',
    csrf: true,
    body: form,
    // `removeLogo`: the branding page's "Remove the logo" button (a logo itself is uploaded as a file: POST /admin/node/branding/logo/)
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      input: {
        ...Object.fromEntries(BRANDING_FIELDS.filter((f) => body[f.field] !== undefined).map((f) => [f.field, str(body[f.field])])),
        ...(str(body.removeLogo) ? { logoUrl: '' } : {}),
      },
    }),
    response: { status: 302, description: 'Saved' },
    respond: () => postRedirect('/admin/node/branding/?saved=1'),
    respondError: adminError('Branding'),
  }),
  logoUploadRoute,
  route({
    method: 'GET',
    path: '/admin/node/licence/',
    summary: 'Admin console: licence status and installation',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminLicence',
    query: adminQuery,
    response: { description: 'Licence (HTML)', contentType: 'text/html' },
    respond: (data, input) => {
      const l = data.nodeInfo.licence;
      const licenceChecks = (data.nodeInfo.checks ?? []).filter((c) => /^app\.(E00[1-4]|E01[01]|W001|W013)$/.test(c.id));
      return page(
        input,
        {
          title: 'Licence',
          user: userOf(input.req),
          breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Licence' }],
          banners: [...saved(input, 'licence'), ...readOnlyBanner(data.nodeInfo.readOnly)],
        },
        html`<h2 class="title">Licence</h2>
          <div class="module">
            <table>
              <tbody>
                <tr>
                  <th scope="row">Status</th>
                  <td>${l.status}</td>
                </tr>
                <tr>
                  <th scope="row">Source</th>
                  <td>${l.source} (${when(l.installedAt)})</td>
                </tr>
                <tr>
                  <th scope="row">Issuer / key</th>
                  <td>${l.issuer ?? '—'} / ${l.keyId ?? '—'}</td>
                </tr>
                <tr>
                  <th scope="row">Token valid until</th>
                  <td>${when(l.expiresAt)}</td>
                </tr>
                ${Object.entries(l.claims ?? {}).map(
                  ([k, v]) =>
                    html`<tr>
                      <th scope="row">${k}</th>
                      <td>${Array.isArray(v) ? v.join(', ') : String(v)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          ${table(
            'Licence checks',
            ['Id', 'Level', 'Message', 'Hint'],
            licenceChecks.map((c) => [c.id, c.level, c.message, c.hint ?? '']),
            'No issues.',
          )}
          ${licenceForms(input, data.nodeInfo.deployment?.registryUrl ?? '')}`,
      );
    },
    respondError: adminError('Licence'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/licence/',
    summary: 'Admin console: install a licence token and public key',
    description: 'Only a pair that verifies is installed; the node returns to normal mode at once. Allowed in read-only mode.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminInstallLicence',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ token: str(body.token).trim(), publicKey: str(body.public_key).trim() }),
    response: { status: 302, description: 'Installed' },
    respond: () => postRedirect('/admin/node/licence/?saved=1'),
    respondError: adminError('Licence'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/licence/activate/',
    summary: 'Admin console: activate with a registry licence key',
    description:
      'Registers the node with the licence registry (the URL given, else VENDOR_LICENSE_ENGINE_URL; https:// in production but on this machine) ' +
      'with a LIC-XXXX-XXXX-XXXX key, checks out its signed licence and installs it, as VENDOR_API_KEY does at start; heartbeats follow with ' +
      'that key. Only a licence signed by a vendor key the node trusts is installed. Allowed in read-only mode.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminActivateLicence',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      licenceKey: str(body.licence_key).trim(),
      registryUrl: str(body.registry_url).trim() || null,
    }),
    response: { status: 302, description: 'Activated' },
    respond: () => postRedirect('/admin/node/licence/?saved=1'),
    respondError: adminError('Licence'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/providercredential/',
    summary: 'Admin console: provider credentials (masked)',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminProviderCredentials',
    query: adminQuery,
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'node',
        {
          title: 'Provider credentials',
          columns: [
            { label: 'Provider', cell: (c) => c.provider, filter: true },
            { label: 'Name', cell: (c) => c.name },
            { label: 'Secret', cell: (c) => html`<code>${c.secretHint}</code>` },
            { label: 'Changed', cell: (c) => `${when(c.updatedAt)}${c.updatedBy ? ` by ${c.updatedBy}` : ''}` },
            {
              label: '',
              cell: (c) =>
                html`<form method="post" action="/admin/node/providercredential/${c.id}/delete/">
                  ${csrfInput(input.csrfToken)}<button class="delete" type="submit">Delete</button>
                </form>`,
              csv: false,
            },
          ],
        },
        data.nodeProviderCredentials,
        input,
        html`${saved(input, 'provider credential').map((b) => html`<div class="banner ok">${b.text}</div>`)}
          <form method="post" class="aligned module" action="/admin/node/providercredential/">
            ${csrfInput(input.csrfToken)}
            <div class="body">
              <div class="row">
                <label class="name" for="id_provider">Provider</label>
                <div>
                  <input type="text" id="id_provider" name="provider" required placeholder="equities_brokerage" />
                  <div class="help">One of the pairs below (the table lists what each module reads)</div>
                </div>
              </div>
              <div class="row">
                <label class="name" for="id_name">Name</label>
                <div><input type="text" id="id_name" name="name" required placeholder="api_key" /></div>
              </div>
              <div class="row">
                <label class="name" for="id_secret">Secret</label>
                <div>
                  <input type="password" id="id_secret" name="secret" required autocomplete="off" />
                  <div class="help">Encrypted at rest (AES-256-GCM); only shown masked.</div>
                </div>
              </div>
            </div>
            <div class="submit-row"><button type="submit" class="default">Add or replace</button></div>
          </form>
          ${table(
            'What each module reads (an environment variable that is set wins over the record)',
            ['Provider', 'Name', 'Module', 'Environment variable', 'Used for'],
            PROVIDER_CREDENTIALS.map((c) => [c.provider, c.name, c.service, html`<code>${c.env}</code>`, c.use]),
          )}`,
      ),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/providercredential/',
    summary: 'Admin console: add or replace a provider credential',
    description:
      "Encrypted at rest with FRAMEWORK_SECRET_KEY. Each finance module asks for its provider's records at call time (a change works without a restart); an environment variable that is set wins over the record. The pairs: " +
      PROVIDER_CREDENTIALS.map((c) => `\`${c.provider}\`/\`${c.name}\` (${c.service}, else \`${c.env}\`)`).join(', ') +
      '.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSaveProviderCredential',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ provider: str(body.provider), name: str(body.name), secret: str(body.secret) }),
    response: { status: 302, description: 'Saved' },
    respond: () => postRedirect('/admin/node/providercredential/?saved=1'),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/providercredential/:id/delete/',
    summary: 'Admin console: delete a provider credential',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminDeleteProviderCredential',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: form,
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { status: 302, description: 'Deleted' },
    respond: () => postRedirect('/admin/node/providercredential/?saved=1'),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/activity/',
    summary: 'Admin console: activity log',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminActivity',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'node',
        {
          title: 'Activity log',
          columns: [
            { label: 'When', cell: (a) => when(a.at) },
            { label: 'Who', cell: (a) => a.actor },
            { label: 'What', cell: (a) => a.action },
            { label: 'Detail', cell: (a) => html`<code>${a.detail}</code>` },
          ],
        },
        data.nodeActivity,
        input,
      ),
    respondError: adminError('Activity log'),
  }),
];

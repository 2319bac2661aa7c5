import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { byteLimit } from '../../../lib/bounded-body';
import type { Config } from '../../../lib/config';
import { html, raw, type Raw } from '../../../lib/html';
import { objectStoreFor } from '../../../lib/object-store';
import { LOGO_MAX_BYTES, LOGO_TYPES, LOGO_UPLOAD_PREFIX, logoTooLarge, logoTypeRefused } from '../../../subgraphs/finance/node/contract';
import { detailErrorShape } from '../../core/errors';
import type { AnyRouteInput, Route, RouteError } from '../../core/route';
import { csrfInput, when } from './layout';
import { route, type ResultOf } from '../operation';

/**
 * The logo on the console's branding page: the current one, a value saved before uploads
 * existed (not shown: said so), and the upload — the file itself as the body, the KYC upload's way: streamed
 * to the object store, then checked and taken by the node subgraph. Served at GET /api/v1/config/logo/
 * (routes/branding.ts).
 */

export type BrandingLogoData = ResultOf<'AdminBranding'>['nodeBranding'];

/**
 * Streams a logo upload's body to the object store (branding/uploads/<uuid>) without holding it in memory:
 * a declared type other than PNG, JPEG or WebP is 415, more than LOGO_MAX_BYTES 413 (from Content-Length
 * before a byte is read, else while it streams). The node subgraph then checks the stored bytes.
 */
async function stageLogo(req: Request, config: Config): Promise<string> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!(LOGO_TYPES as readonly string[]).includes(type)) throw logoTypeRefused(type);
  const length = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (length !== undefined && length > LOGO_MAX_BYTES) throw logoTooLarge();
  const limited = byteLimit(LOGO_MAX_BYTES, logoTooLarge);
  limited.once('error', () => {
    // the rest of an oversized body is read and dropped, so that the client gets its 413
    req.unpipe(limited);
    req.resume();
  });
  const key = `${LOGO_UPLOAD_PREFIX}${randomUUID()}`;
  const objects = objectStoreFor(config);
  try {
    await objects.put(key, req.pipe(limited), { contentType: type, size: length });
  } catch (err) {
    await objects.delete(key).catch(() => undefined);
    throw err;
  }
  // an upload the operation never takes (refused before the node subgraph runs: a support session, read-only) is removed on the error reply
  if (req.res) req.res.locals.logoUploadKey = key;
  return key;
}

export const LOGO_UPLOAD_PATH = '/admin/node/branding/logo/';

export const logoUploadRoute: Route = route({
  method: 'POST',
  path: LOGO_UPLOAD_PATH,
  summary: 'Admin console: upload the logo',
  description:
    "A superuser's upload from the branding page: the body is the file itself, `Content-Type` image/png, image/jpeg or image/webp (otherwise " +
    '415: GIF and SVG are refused, SVG because it can carry scripts), at most 512 KiB (413), the CSRF token in `X-CSRFToken`. The type is ' +
    'decided by the first bytes (400 when they are not a PNG, JPEG or WebP). Answers the new `logo_url` (served at GET /api/v1/config/logo/). ' +
    'Audited (branding.logo_uploaded). Refused uploads change nothing and leave nothing stored.',
  tags: ['Admin console'],
  security: 'session',
  operation: 'AdminUploadLogo',
  consumes: 'binary',
  csrf: true,
  variables: async ({ req, config }: AnyRouteInput) => ({ uploadKey: await stageLogo(req, config) }),
  response: {
    status: 201,
    description: "The logo is the branding's",
    schema: z.object({ logo_url: z.string(), content_type: z.string(), size: z.number().int(), sha256: z.string() }),
  },
  errors: [400, 403, 413, 415],
  // (302 without a session, as every console page: the surface documents it)
  respond: (data) => {
    const { logoUrl, logo } = data.uploadNodeLogo;
    // the schema allows a branding without a logo; an upload that succeeded always leaves one
    if (!logo) throw new Error('uploadNodeLogo answered no logo');
    return { kind: 'json', status: 201, body: { logo_url: logoUrl, content_type: logo.contentType, size: logo.size, sha256: logo.sha256 } };
  },
  respondError: (error: RouteError, input) => {
    const key = input.req.res?.locals.logoUploadKey as string | undefined;
    if (key)
      void objectStoreFor(input.config)
        .delete(key)
        .catch(() => undefined);
    // as every console page: a browser whose session is gone is sent to the sign-in page (then back to the branding page)
    if (error.status === 401) return { kind: 'redirect', status: 302, location: '/admin/login/?next=/admin/node/branding/' };
    return { kind: 'json', status: error.status, body: detailErrorShape.body(error.status, error.code, error.message, error.fields) };
  },
});

/** Sends the chosen file as the body (the upload route takes the file itself), then reloads the page; a refusal is shown as the node words it. */
const UPLOAD_SCRIPT = `(function () {
  var form = document.getElementById('logo-form');
  var status = document.getElementById('logo-status');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var file = form.elements.logo.files[0];
    if (!file) { status.textContent = 'Choose an image file first.'; return; }
    status.textContent = 'Uploading…';
    fetch(form.action, {
      method: 'POST',
      body: file,
      credentials: 'same-origin',
      headers: { 'content-type': file.type || 'application/octet-stream', 'x-csrftoken': form.elements.csrfmiddlewaretoken.value },
    }).then(function (res) {
      if (res.ok) { window.location.assign('/admin/node/branding/?saved=1'); return; }
      return res.json().then(function (body) { status.textContent = body.detail || 'The upload was refused (' + res.status + ').'; });
    }).catch(function () { status.textContent = 'The upload failed; check the connection and try again.'; });
  });
})();`;

const kib = (bytes: number) => `${Math.round(bytes / 102.4) / 10} KiB`;

/** The branding page's logo module: what is shown now, a legacy value's explanation, the upload form and the removal. */
export function logoSection(b: BrandingLogoData, csrfToken: string | undefined): Raw {
  const current = b.logo
    ? html`<p>
          <img src="${b.logoUrl}" alt="Current logo" data-testid="current-logo" style="max-height:64px;max-width:100%;vertical-align:middle" />
          <small>${b.logo.contentType}, ${kib(b.logo.size)}, uploaded ${when(b.logo.uploadedAt)}</small>
        </p>
        <form method="post" action="/admin/node/branding/" style="margin:0 0 16px">
          ${csrfInput(csrfToken)}<input type="hidden" name="removeLogo" value="1" /><button type="submit" class="delete">Remove the logo</button>
        </form>`
    : html`<p>No logo yet: the console and the web client show the organisation's name only.</p>`;
  const legacy = b.legacyLogoUrl
    ? html`<p class="banner warning" role="status" data-testid="legacy-logo">
        A logo saved before uploads existed is not shown
        (${b.legacyLogoUrl.startsWith('data:') ? 'a data: URI' : html`<code>${b.legacyLogoUrl.slice(0, 120)}</code>`}): the web client and the console load
        images from this node only, and the node does not fetch other sites. Upload the image file below to show it; removing the logo forgets the old value.
      </p>`
    : '';
  return html`<div class="module" id="logo">
      <h2>Logo</h2>
      <div class="body">
        ${legacy} ${current}
        <form id="logo-form" method="post" action="${LOGO_UPLOAD_PATH}" enctype="multipart/form-data">
          ${csrfInput(csrfToken)}
          <label for="id_logo"><strong>Upload a logo</strong> (PNG, JPEG or WebP, at most 512 KiB; SVG is refused as it can carry scripts)</label><br />
          <input type="file" id="id_logo" name="logo" accept="image/png,image/jpeg,image/webp" required />
          <button type="submit" class="default">Upload logo</button>
          <p id="logo-status" role="status" aria-live="polite"></p>
        </form>
        ${
          b.legacyLogoUrl && !b.logo
            ? html`<form method="post" action="/admin/node/branding/">
                ${csrfInput(csrfToken)}<input type="hidden" name="removeLogo" value="1" /><button type="submit" class="delete">
                  Forget the old logo value
                </button>
              </form>`
            : ''
        }
      </div>
    </div>
    <script>
      ${raw(UPLOAD_SCRIPT)};
    </script>`;
}

import { DomainError } from '../../../lib/errors';

/**
 * The node subgraph's public face (what the REST surface may import). The node's logo: uploaded from
 * the admin console's branding page as the file itself,
 * streamed by the REST surface to the object store under LOGO_UPLOAD_PREFIX, then checked and taken by the
 * node subgraph (type by its first bytes, size, SHA-256) and served to anyone at LOGO_PATH. Shared by the
 * node subgraph and the REST surface (declarations only).
 */

/** At most 512 KiB: a logo, not a photo. */
export const LOGO_MAX_BYTES = 512 * 1024;

/** What a logo may be (PNG, JPEG, WebP, recognised by their bytes). SVG is refused: it can carry scripts, and it is not sanitised here. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Where anyone reads the logo (the public configuration's `branding.logo_url` names it, with `?v=` its version). */
export const LOGO_PATH = '/api/v1/config/logo/';

/** Where the REST surface streams an upload before the node subgraph takes it (object store key `branding/uploads/<random uuid>`). */
export const LOGO_UPLOAD_PREFIX = 'branding/uploads/';
export const isLogoUploadKey = (key: string) => /^branding\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key);

/** 413: a logo over LOGO_MAX_BYTES (the REST surface's streamed upload, and the subgraph's check of it). */
export const logoTooLarge = () =>
  new DomainError('PAYLOAD_TOO_LARGE', 413, `The logo exceeds ${LOGO_MAX_BYTES} bytes (512 KiB); make it smaller.`, { max_bytes: LOGO_MAX_BYTES });

/** 415: a declared type the upload does not take (GIF, SVG, anything but PNG, JPEG or WebP). */
export const logoTypeRefused = (declared: string) =>
  new DomainError(
    'UNSUPPORTED_MEDIA_TYPE',
    415,
    `A logo is a PNG, JPEG or WebP image${declared ? ` (not ${declared})` : ''}; SVG is refused because it can carry scripts.`,
  );

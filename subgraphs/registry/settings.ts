import { z } from 'zod';
import { flag, optionalUrl, type ProductSettings } from '../../lib/settings';

/** What the licence registry and its customer workspace read from the environment. */
const schema = z.object({
  /** The registry's public URL, base of the links it answers and mails; required in production (links are never built from the Host header there). */
  PUBLIC_URL_REGISTRY: optionalUrl,
  /** Registry requests per licence and minute (429 with Retry-After beyond it). */
  REGISTRY_RATE_LIMIT: z.coerce.number().int().min(1).default(300),
  /** Lifetime of a download token (single use). */
  DOWNLOAD_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Lifetime of a presigned object link (the 302 target of a download). */
  PRESIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604800).default(300),
  /** Lifetime of a signed licence token (checkout, manifests); never beyond the licence's own expiry. */
  LICENCE_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** The registry's Ed25519 signing key (PKCS#8 PEM, `\n` escapes allowed); unset: generated on first start, kept encrypted. */
  LICENSING_SIGNING_KEY: z.string().trim().min(1).optional(),
  /** Lifetime of a customer workspace session (cookie workspace_session). */
  WORKSPACE_SESSION_TTL_SECONDS: z.coerce.number().int().min(300).max(2592000).default(43200),
  /** Tests only: branding logos and favicons may be fetched from private and loopback addresses (a local test server). */
  WORKSPACE_ASSET_FETCH_ALLOW_PRIVATE: flag(false),
});

export const registrySettings = {
  schema,
  publicUrl: {
    key: 'PUBLIC_URL_REGISTRY',
    what: 'the licence registry',
    why: 'the links of its answers and mails (downloads, invitations, password resets) would otherwise be built from the Host header a client sends',
    example: "the registry's public URL, e.g. https://registry.example.com",
  },
} as const satisfies ProductSettings<typeof schema>;

declare module '../../lib/config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds this product's values to Config
  interface ProductConfig extends z.infer<typeof schema> {}
}

import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../../../lib/config';
import { objectStoreFor, type ObjectStore } from '../../../lib/object-store';
import { LOGO_PATH } from '../../../subgraphs/finance/node/contract';
import { detailErrorShape } from '../../core/errors';
import type { Reply, Route } from '../../core/route';
import { route, type ResultOf } from '../operation';

/**
 * The node's logo, served to anyone at LOGO_PATH from the object store (uploaded from the
 * console's branding page: admin/logo.ts).
 */

async function* streamOf(objects: ObjectStore, key: string, range?: { start: number; end: number }): AsyncGenerator<Buffer> {
  for await (const chunk of await objects.get(key, range)) yield chunk as Buffer;
}

/** The logo's bytes: its type from its bytes, ETag its SHA-256, revalidated at each use (the path stays; `?v=` changes with it). */
function logoReply(logo: ResultOf<'PublicLogo'>['nodeBranding']['logo'], config: Config): Reply {
  if (!logo)
    return {
      kind: 'json',
      status: 404,
      headers: { 'cache-control': 'no-cache' },
      body: detailErrorShape.body(404, 'not_found', 'This node has no logo.'),
    };
  const objects = objectStoreFor(config);
  return {
    kind: 'stream',
    body: {
      size: logo.size,
      contentType: logo.contentType,
      etag: logo.sha256,
      lastModified: new Date(logo.uploadedAt),
      headers: {
        'cache-control': 'public, no-cache',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline',
        'content-security-policy': "default-src 'none'; sandbox",
        'cross-origin-resource-policy': 'same-origin',
      },
      open: (range) => Readable.from(streamOf(objects, logo.objectKey, range)),
    },
  };
}

export const publicLogoRoute: Route = route({
  method: 'GET',
  path: LOGO_PATH,
  summary: "The organisation's logo",
  description:
    'No authentication. The logo a superuser uploaded in the admin console (Node › Branding): PNG, JPEG or WebP as its bytes say, with `ETag` ' +
    '(its SHA-256), `Cache-Control: public, no-cache` (revalidated: 304 while unchanged), `X-Content-Type-Options: nosniff`. `branding.logo_url` ' +
    'of `GET /api/v1/config/` names this path with `?v=` the version (ignored here). 404 when the node has no logo.',
  tags: ['Configuration'],
  security: 'none',
  operation: 'PublicLogo',
  query: z.object({ v: z.string().max(64).optional().describe('The version the configuration names (cache busting; ignored)') }),
  response: { description: 'The logo (image/png, image/jpeg or image/webp)', contentType: 'image/*' },
  errors: [404],
  respond: (data, input) => logoReply(data.nodeBranding.logo, input.config),
});

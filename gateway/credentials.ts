import type { IncomingHttpHeaders } from 'node:http';

export type Credential = { kind: 'none' } | { kind: 'api-key'; key: string } | { kind: 'malformed' };

/**
 * `Authorization: Bearer <API_KEY>`. HTTP Basic with the key as password is accepted too, so that a
 * browser can open the GraphQL IDE with an administrator key (the browser then repeats it on every request).
 */
export function credentialFrom(headers: IncomingHttpHeaders): Credential {
  const header = headers.authorization;
  if (header === undefined || header === '') return { kind: 'none' };
  const bearer = /^Bearer +([^\s]+) *$/i.exec(header);
  if (bearer) return { kind: 'api-key', key: bearer[1] };
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0 && decoded.length > colon + 1) return { kind: 'api-key', key: decoded.slice(colon + 1) };
  }
  return { kind: 'malformed' };
}

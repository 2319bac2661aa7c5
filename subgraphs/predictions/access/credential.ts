import type { CredentialKind } from '../../../lib/credentials';
import { KEY_PREFIX } from './domain/key-format';

declare module '../../../lib/principal' {
  interface PrincipalKinds {
    /** A prediction API key (`administrator` for administrator keys). */
    'api-key': { keyId: string; prefix: string; name: string; role: 'client' | 'admin'; plan: string };
    /** The mail system delivering e-mailed applications to the inbound-mail webhook (it knows INBOUND_MAIL_SECRET). */
    'inbound-mail': object;
  }
}

/** NOTIFY channel: a key was revoked or re-planned; every process drops its cached row (payload: the prefix). */
export const KEY_CHANGED = 'access_key_changed';

/** The challenge of the prediction API's 401 answers (RFC 6750). */
export const API_KEY_CHALLENGE = 'Bearer realm="api"';

// an operator-chosen ADMIN_API_KEY's shape (access/operator-keys.ts)
const KEY_SHAPE = /^[0-9A-Za-z_-]{32,128}$/;

/**
 * Prediction API keys: `Authorization: Bearer <API_KEY>`, or HTTP Basic with the key as password
 * (so a browser can open the GraphQL IDE with an administrator key). Verified and metered by the
 * access subgraph, one request per operation.
 */
export const apiKeyCredential: CredentialKind = {
  name: 'api-key',
  description: 'Prediction API key (Authorization: Bearer <API_KEY>)',
  sources: [
    { header: 'authorization', scheme: 'Bearer' },
    { header: 'authorization', scheme: 'Basic' },
  ],
  // generated keys start with mpk_; an operator-chosen ADMIN_API_KEY only has the shape
  recognises: (value) => value.startsWith(KEY_PREFIX) || (KEY_SHAPE.test(value) && !value.includes('.')),
  verifier: {
    subgraph: 'access',
    operation: `mutation GatewayAuthenticateApiKey($credential: String!, $meter: Boolean!) {
  authenticateApiKey(apiKey: $credential, meter: $meter) { keyId prefix name role plan limit remaining resetAt }
}`,
    read(data) {
      const a = data.authenticateApiKey as {
        keyId: string;
        prefix: string;
        name: string;
        role: 'client' | 'admin';
        plan: string;
        limit: number | null;
        remaining: number | null;
        resetAt: string | null;
      };
      return {
        principal: { kind: 'api-key', keyId: a.keyId, prefix: a.prefix, name: a.name, role: a.role, plan: a.plan, administrator: a.role === 'admin' },
        quota: a.limit === null ? null : { limit: a.limit, remaining: a.remaining!, resetAt: new Date(a.resetAt!) },
      };
    },
    // an answer that is the server's fault (5xx) costs nothing: its unit goes back to the day's count
    giveBack: {
      operation: `mutation GatewayGiveBackApiKeyRequest($credential: String!, $ticket: String!, $resetAt: String!) {
  giveBackApiKeyRequest(apiKey: $credential, ticket: $ticket, resetAt: $resetAt)
}`,
      remaining: (data) => (data.giveBackApiKeyRequest as number | null) ?? null,
    },
  },
  challenge: API_KEY_CHALLENGE,
  // revocation is checked on every request; the TTL bounds how long a plan change may go unseen without its NOTIFY
  cache: { ttlSeconds: 10, evictedBy: KEY_CHANGED },
};

/** The inbound-mail webhook's header. */
export const INBOUND_SECRET_HEADER = 'x-inbound-mail-secret';

/**
 * The inbound-mail webhook's shared secret (INBOUND_MAIL_SECRET), as a credential: only in its
 * header, never a GraphQL argument; verified by the access subgraph, which counts wrong secrets per
 * client address and refuses (429) past five in 15 minutes.
 */
export const inboundMailCredential: CredentialKind = {
  name: 'inbound-mail',
  description: 'the inbound e-mail secret (X-Inbound-Mail-Secret)',
  sources: [{ header: INBOUND_SECRET_HEADER }],
  recognises: (value) => value.length > 0 && value.length <= 512,
  verifier: {
    subgraph: 'access',
    operation: `mutation GatewayAuthenticateInboundMail($credential: String!, $meter: Boolean!) {
  authenticateInboundMail(secret: $credential, meter: $meter)
}`,
    read: () => ({ principal: { kind: 'inbound-mail' }, quota: null }),
  },
};

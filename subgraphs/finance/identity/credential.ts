import type { CredentialKind } from '../../../lib/credentials';
import { ANONYMOUS } from '../../../lib/principal';
import type { KycLevel } from '../kernel/kyc';

declare module '../../../lib/principal' {
  interface PrincipalKinds {
    /**
     * A finance node user, by a node access token (JWT signed with SERVER_JWT_KEY). `scope` is
     * `access`, or `enrol-2fa` for the short token that only lets a user enrol in 2FA.
     */
    'node-user': {
      userId: string;
      username: string;
      scope: string;
      kycLevel: KycLevel;
      /** false: a signed-up user who has not verified their e-mail address yet (no money moves: the gate refuses). */
      emailVerified?: boolean;
      /** The sign-in session of the token (GET /api/auth/sessions/ marks it `current`). */
      sessionId?: string;
    };
    /** A superuser signed in to the finance node's admin console (session cookie). */
    'node-admin': {
      userId: string;
      username: string;
      /** support: support staff, below a superuser (the gate's SUPPORT_FIELDS); absent: superuser. */ role?: 'superuser' | 'support';
    };
  }
}

/** The subgraphs whose service principal may set a user's KYC level (the outcome of a verification). */
export const KYC_LEVEL_WRITERS = ['compliance'];
/** The subgraphs whose service principal may look up a transfer's recipient (or a manual adjustment's user) by user name, e-mail or phone. */
export const RECIPIENT_READERS = ['payments', 'ledger'];

/** The subgraphs whose service principal may ask identity to re-check a user's password (and 2FA code) before a sensitive read: a card's full number. */
export const REAUTHENTICATORS = ['cards'];

/** NOTIFY channel: a user changed (deactivated, new password, 2FA); every process drops its cached row (payload: the user id). */
export const USER_CHANGED = 'identity_user_changed';

/** The challenge of the finance node's 401 answers (RFC 6750). */
export const NODE_TOKEN_CHALLENGE = 'Bearer realm="finance-node"';

/** The admin console's session cookie, named as Django names it. */
export const ADMIN_SESSION_COOKIE = 'sessionid';

/** A compact JWS: three base64url segments (never an `mpk_…` API key, which has no dots). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const SESSION_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Finance node access tokens: `Authorization: Bearer <ACCESS_TOKEN>` (from POST /api/login/),
 * verified by the identity subgraph (HS256 pinned, expiry honoured, the user still active).
 */
export const nodeTokenCredential: CredentialKind = {
  name: 'node-user',
  description: 'finance node access token (Authorization: Bearer <ACCESS_TOKEN> from POST /api/login/)',
  sources: [{ header: 'authorization', scheme: 'Bearer' }],
  recognises: (value) => JWT_SHAPE.test(value),
  verifier: {
    subgraph: 'identity',
    operation: `mutation GatewayAuthenticateNodeToken($credential: String!, $meter: Boolean!) {
  authenticateNodeToken(token: $credential, meter: $meter) { userId username scope kycLevel emailVerified sessionId }
}`,
    read(data) {
      const a = data.authenticateNodeToken as {
        userId: string;
        username: string;
        scope: string;
        kycLevel: KycLevel;
        emailVerified: boolean;
        sessionId: string | null;
      };
      const session = a.sessionId ? { sessionId: a.sessionId } : {};
      return {
        principal: {
          kind: 'node-user',
          userId: a.userId,
          username: a.username,
          scope: a.scope,
          kycLevel: a.kycLevel,
          emailVerified: a.emailVerified,
          ...session,
        },
      };
    },
  },
  challenge: NODE_TOKEN_CHALLENGE,
  cache: { ttlSeconds: 60, evictedBy: USER_CHANGED },
};

/**
 * The admin console's session (cookie `sessionid`), verified by the identity subgraph. As in Django,
 * an unknown or expired session is no error: the caller is anonymous (a stale cookie never breaks
 * the public endpoints; the console's pages then ask to sign in).
 */
export const adminSessionCredential: CredentialKind = {
  name: 'node-admin',
  description: 'finance node admin console session (cookie sessionid, from /admin/login/)',
  sources: [{ cookie: ADMIN_SESSION_COOKIE }],
  recognises: (value) => SESSION_SHAPE.test(value),
  verifier: {
    subgraph: 'identity',
    operation: `mutation GatewayAuthenticateAdminSession($credential: String!, $meter: Boolean!) {
  authenticateAdminSession(session: $credential, meter: $meter) { userId username role }
}`,
    read(data) {
      const a = data.authenticateAdminSession as { userId: string; username: string; role: string } | null;
      return {
        principal: a ? { kind: 'node-admin', userId: a.userId, username: a.username, role: a.role === 'superuser' ? 'superuser' : 'support' } : ANONYMOUS,
      };
    },
  },
  cache: { ttlSeconds: 60, evictedBy: USER_CHANGED },
};

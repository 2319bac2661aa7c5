import type { CredentialKind } from '../../../lib/credentials';
import { ANONYMOUS } from '../../../lib/principal';
import { canonicalLicenceKey, isDownloadToken } from './domain/keys';

declare module '../../../lib/principal' {
  interface PrincipalKinds {
    /** A licence key: reaches its own licence's data only (its product's releases, its deployments). */
    licence: {
      licenceId: string;
      organisationId: string;
      productId: string;
      /** Product code, e.g. `finance-node`. */
      product: string;
      planId: string;
      plan: string;
      maxNodes: number;
      heartbeatIntervalSeconds: number;
      heartbeatDriftSeconds: number;
      /** YYYY-MM-DD: releases published after it are not covered. */
      maintenanceUntil: string;
      entitlements: string[];
    };
    /** A single-use download token: one artifact, once, within its lifetime. */
    'download-token': { tokenId: string; artifactId: string; licenceId: string };
    /** A person of a customer organisation signed in to the workspace (session cookie): their organisation's data only. */
    'workspace-user': { userId: string; organisationId: string; email: string; name: string; role: 'owner' | 'member' };
  }
}

/** NOTIFY channel: a licence changed (status, maintenance); every process drops its cached row. Payload: licence id, or `*`. */
export const LICENCE_CHANGED = 'licensing_licence_changed';

/** The challenge of the registry's 401 answers. */
export const LICENCE_CHALLENGE = 'License realm="licence-registry"';

interface LicenceVerification {
  licenceId: string;
  organisationId: string;
  productId: string;
  product: string;
  planId: string;
  plan: string;
  maxNodes: number;
  heartbeatIntervalSeconds: number;
  heartbeatDriftSeconds: number;
  maintenanceUntil: string;
  entitlements: string[];
  limit: number;
  remaining: number;
  resetAt: string;
}

/**
 * Licence keys (`LIC-XXXX-XXXX-XXXX`): header `x-license-key`, or the query parameter `licenseKey`
 * (prefer the header: query strings end up in proxy logs). Verified by the licensing subgraph, which
 * caches verified keys (NOTIFY on LICENCE_CHANGED evicts one in every process) and counts each
 * request against the licence's rate limit.
 */
export const licenceKeyCredential: CredentialKind = {
  name: 'licence',
  description: 'licence key (x-license-key: LIC-XXXX-XXXX-XXXX)',
  sources: [{ header: 'x-license-key' }, { query: 'licenseKey' }],
  recognises: (value) => canonicalLicenceKey(value) !== undefined,
  verifier: {
    subgraph: 'licensing',
    operation: `mutation GatewayAuthenticateLicence($credential: String!, $meter: Boolean!) {
  authenticateLicenceKey(licenceKey: $credential, meter: $meter) {
    licenceId organisationId productId product planId plan maxNodes heartbeatIntervalSeconds heartbeatDriftSeconds
    maintenanceUntil entitlements limit remaining resetAt
  }
}`,
    read(data) {
      const { limit, remaining, resetAt, ...licence } = data.authenticateLicenceKey as LicenceVerification;
      return { principal: { kind: 'licence', ...licence }, quota: { limit, remaining, resetAt: new Date(resetAt) } };
    },
  },
  challenge: LICENCE_CHALLENGE,
  cache: { ttlSeconds: 60, evictedBy: LICENCE_CHANGED },
};

interface TokenVerification {
  tokenId: string;
  artifactId: string;
  licenceId: string;
  limit: number;
  remaining: number;
  resetAt: string;
}

/**
 * Download tokens (`dlt_…`, from POST /api/v1/artifacts/<id>/authorize): the query parameter `token`
 * of the download route only. Verified (never cached: each is good for one download) by the licensing
 * subgraph; the download itself consumes it, atomically.
 */
export const downloadTokenCredential: CredentialKind = {
  name: 'download-token',
  description: 'download token (?token=dlt_…)',
  sources: [{ query: 'token' }],
  recognises: isDownloadToken,
  verifier: {
    subgraph: 'licensing',
    operation: `mutation GatewayAuthenticateDownloadToken($credential: String!, $meter: Boolean!) {
  authenticateDownloadToken(token: $credential, meter: $meter) { tokenId artifactId licenceId limit remaining resetAt }
}`,
    read(data) {
      const { limit, remaining, resetAt, ...token } = data.authenticateDownloadToken as TokenVerification;
      return { principal: { kind: 'download-token', ...token }, quota: { limit, remaining, resetAt: new Date(resetAt) } };
    },
  },
  challenge: LICENCE_CHALLENGE,
};

/** The workspace's session cookie (HttpOnly, SameSite=Lax, path /workspace/). */
export const WORKSPACE_SESSION_COOKIE = 'workspace_session';

/**
 * Workspace sessions (cookie `workspace_session`, from the sign-in form at /workspace/login/), verified
 * by the licensing subgraph. An unknown or expired session is anonymous: the pages then ask to sign in.
 */
export const workspaceSessionCredential: CredentialKind = {
  name: 'workspace-user',
  description: 'customer workspace session (cookie workspace_session, from /workspace/login/)',
  sources: [{ cookie: WORKSPACE_SESSION_COOKIE }],
  recognises: (value) => /^[A-Za-z0-9_-]{43}$/.test(value),
  verifier: {
    subgraph: 'licensing',
    operation: `mutation GatewayAuthenticateWorkspaceSession($credential: String!, $meter: Boolean!) {
  authenticateWorkspaceSession(session: $credential, meter: $meter) { userId organisationId email name role }
}`,
    read(data) {
      const user = data.authenticateWorkspaceSession as {
        userId: string;
        organisationId: string;
        email: string;
        name: string;
        role: 'owner' | 'member';
      } | null;
      return { principal: user ? { kind: 'workspace-user', ...user } : ANONYMOUS };
    },
  },
};

/** The finance node's REST surface, as this client calls it: every call carries the client headers. */

declare const __CLIENT_VERSION__: string;

/** The platform and version this client reports (X-Client-Platform, X-Client-Version). */
export const CLIENT_PLATFORM = 'web';
export const CLIENT_VERSION = __CLIENT_VERSION__;

export interface Money {
  amount: string;
  currency: string;
}

export interface Balance {
  currency: string;
  available: Money;
  posted: Money;
  pending: Money;
}

export interface PublicConfig {
  app: { name: string; version: string };
  branding: Record<string, string>;
  modules: Record<string, boolean>;
  banking_rails: { rail: string; currencies: string[]; module: string }[];
  kyc: { required: boolean; enhanced_required: boolean };
  auth: { enforce_2fa: boolean };
  maintenance: { active: boolean; message: string };
  read_only: boolean;
}

export type FeatureFlags = Record<string, boolean | string>;

export interface LoginResult {
  access: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** An answer of the node that is not a success: its status and the `{detail, code}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A unique id per request (X-Request-ID), so a support request can be found in the node's logs. */
function requestId(): string {
  return crypto.randomUUID();
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  token?: string | null;
}

/** The API's origin: the node that serves this client (same origin), unless the page names another. */
export function apiBase(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="finance-api-base"]');
  return (meta?.content || location.origin).replace(/\/$/, '');
}

/** The client headers of the contract (Authorization once signed in). */
export function clientHeaders(token?: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Request-ID': requestId(),
    'X-Request-Timestamp': new Date().toISOString(),
    'X-Client-Platform': CLIENT_PLATFORM,
    'X-Client-Version': CLIENT_VERSION,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

export async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(apiBase() + path, {
      method: options.method ?? 'GET',
      headers: clientHeaders(options.token),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The node cannot be reached. Check your connection and try again.', {});
  }
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { detail: text };
  }
  if (!response.ok) {
    const detail = typeof body.detail === 'string' ? body.detail : `The node answered ${response.status}.`;
    throw new ApiError(response.status, typeof body.code === 'string' ? body.code : 'error', detail, body);
  }
  return body as T;
}

export const api = {
  version: CLIENT_VERSION,
  call: (path: string, token: string) => call<Record<string, unknown>>(path, { token }),
  config: () => call<PublicConfig>('/api/v1/config/'),
  features: () => call<FeatureFlags>('/api/v1/config/features/'),
  login: (username: string, password: string, otp?: string) =>
    call<LoginResult>('/api/login/', { method: 'POST', body: otp ? { username, password, otp } : { username, password } }),
  balance: (token: string) => call<{ balances: Balance[] }>('/api/balance/', { token }),
  startEnrolment: (token: string) => call<{ secret: string; otpauth_uri: string }>('/api/auth/2fa/enrol/', { method: 'POST', token }),
  confirmEnrolment: (token: string, otp: string) =>
    call<{ username: string; two_factor_enabled: boolean }>('/api/auth/2fa/confirm/', { method: 'POST', token, body: { otp } }),
  openapi: () => call<{ paths: Record<string, Record<string, { summary?: string; description?: string; parameters?: { in: string }[] }>> }>('/swagger.json'),
};

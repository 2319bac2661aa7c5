import { notFound } from '../../../../lib/errors';
import type { OnboardingStore, SessionRow } from '../store/onboarding-store';
import type { UserRow } from '../store/identity-store';
import { ACCESS_TOKEN_TTL_SECONDS, type TokenService } from './tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a process trusts its last look at a session (a revocation elsewhere also arrives by NOTIFY at once). */
export const SESSION_CACHE_TTL_MS = 30_000;
const SESSION_CACHE_MAX = 10_000;

/** Where a sign-in came from: shown in the list of sessions. */
export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
}

export interface AccessGrant {
  access: string;
  tokenType: 'Bearer';
  expiresIn: number;
  sessionId: string;
}

export interface SessionView extends SessionRow {
  current: boolean;
}

/**
 * Sign-in sessions: each access token names its session (`sid`), checked on every request (cached
 * for SESSION_CACHE_TTL_MS, dropped at once by NOTIFY when the user's sessions change), so that a
 * token can be revoked: signing out, signing out everywhere, a password change or reset.
 */
export class SessionService {
  private readonly alive = new Map<string, { userId: string; ok: boolean; at: number }>();

  constructor(
    private readonly store: OnboardingStore,
    private readonly tokens: () => TokenService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new session for a user who just proved who they are, and its access token. */
  async grant(user: UserRow, meta: SessionMeta = {}): Promise<AccessGrant> {
    const tokens = this.tokens();
    const sessionId = await this.store.insertSession({
      userId: user.id,
      ttlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      userAgent: (meta.userAgent ?? '').slice(0, 500),
      ip: (meta.ip ?? '').slice(0, 100),
    });
    const access = await tokens.issue(
      { userId: user.id, username: user.username, scope: 'access', version: user.tokenVersion, sessionId },
      ACCESS_TOKEN_TTL_SECONDS,
    );
    return { access, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, sessionId };
  }

  /** Whether a presented token's session is alive (cached briefly; the database row is touched when looked at). */
  async isAlive(sessionId: string | undefined, userId: string): Promise<boolean> {
    if (!sessionId || !UUID.test(sessionId)) return false;
    const now = this.clock();
    const hit = this.alive.get(sessionId);
    if (hit && hit.userId === userId && now - hit.at < SESSION_CACHE_TTL_MS) return hit.ok;
    const ok = await this.store.touchSession(sessionId, userId);
    if (this.alive.size >= SESSION_CACHE_MAX) this.alive.clear();
    this.alive.set(sessionId, { userId, ok, at: now });
    return ok;
  }

  /** The user's sessions changed (here or in another process): their cached states go. */
  forgetUser(userId: string): void {
    for (const [id, s] of this.alive) if (s.userId === userId) this.alive.delete(id);
  }

  async list(userId: string, currentId: string | undefined): Promise<SessionView[]> {
    return (await this.store.sessions(userId)).map((s) => ({ ...s, current: s.id === currentId }));
  }

  /** Ends one of the user's own sessions; 404 for any other id. */
  async revoke(userId: string, sessionId: string): Promise<void> {
    const ok = UUID.test(sessionId) && (await this.store.revokeSession(userId, sessionId));
    this.forgetUser(userId);
    if (!ok) throw notFound('No such session.');
  }

  /** Ends every session of the user (but `except`). */
  async revokeAll(userId: string, except?: string): Promise<number> {
    const n = await this.store.revokeSessions(userId, except);
    this.forgetUser(userId);
    return n;
  }
}

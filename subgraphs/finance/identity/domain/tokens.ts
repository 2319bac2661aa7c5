import { SignJWT, jwtVerify } from 'jose';
import { invalidCredentials } from '../../../../lib/errors';

/** Node access tokens: HS256 JWTs signed with SERVER_JWT_KEY; the algorithm is pinned, the expiry honoured. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** The short token that only lets a user enrol in 2FA (when 2FA is enforced and they have not enrolled yet). */
export const ENROLMENT_TOKEN_TTL_SECONDS = 600;
export const TOKEN_AUDIENCE = 'finance-node';
const ALGORITHM = 'HS256';

export interface TokenClaims {
  userId: string;
  username: string;
  scope: 'access' | 'enrol-2fa';
  version: number;
  /** The sign-in session an access token belongs to (identity.user_session): revoking it ends the token. */
  sessionId?: string;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    signingKey: string,
    private readonly issuer: string,
  ) {
    this.key = new TextEncoder().encode(signingKey);
  }

  async issue(claims: TokenClaims, ttlSeconds: number): Promise<string> {
    return new SignJWT({ username: claims.username, scope: claims.scope, ver: claims.version, ...(claims.sessionId ? { sid: claims.sessionId } : {}) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], audience: TOKEN_AUDIENCE, issuer: this.issuer });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string' || typeof payload.ver !== 'number') throw new Error('claims');
      const scope = payload.scope === 'enrol-2fa' ? 'enrol-2fa' : payload.scope === 'access' ? 'access' : undefined;
      if (!scope) throw new Error('scope');
      const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
      return { userId: payload.sub, username: payload.username, scope, version: payload.ver, ...(sessionId ? { sessionId } : {}) };
    } catch (err) {
      const expired = (err as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw invalidCredentials(expired ? 'Token is expired.' : 'Token is invalid.');
    }
  }
}

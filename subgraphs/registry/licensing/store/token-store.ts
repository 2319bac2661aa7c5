import type { Store } from '../../../../lib/database';
import type { LicenceStatus } from './licence-store';

export interface TokenForAuth {
  id: string;
  artifactId: string;
  licenceId: string;
  expiresAt: Date;
  usedAt: Date | null;
  licenceStatus: LicenceStatus;
  licenceExpiresAt: Date | null;
}

/** Single-use download tokens: only their SHA-256 is stored; consuming one is a single conditional UPDATE. */
export class TokenStore {
  constructor(private readonly store: Store) {}

  async insert(row: { tokenHash: Buffer; artifactId: string; licenceId: string; expiresAt: Date }): Promise<{ id: string }> {
    const { rows } = await this.store.pool.query<{ id: string }>(
      'INSERT INTO licensing.download_token (token_hash, artifact_id, licence_id, expires_at) VALUES ($1, $2, $3, $4) RETURNING id',
      [row.tokenHash, row.artifactId, row.licenceId, row.expiresAt],
    );
    return rows[0];
  }

  async findForAuth(tokenHash: Buffer): Promise<TokenForAuth | undefined> {
    const { rows } = await this.store.pool.query<TokenForAuth>({
      name: 'licensing.token_for_auth',
      text: `SELECT t.id, t.artifact_id AS "artifactId", t.licence_id AS "licenceId", t.expires_at AS "expiresAt", t.used_at AS "usedAt",
                    l.status AS "licenceStatus", l.expires_at AS "licenceExpiresAt"
               FROM licensing.download_token t JOIN licensing.licence l ON l.id = t.licence_id WHERE t.token_hash = $1`,
      values: [tokenHash],
    });
    return rows[0];
  }

  /**
   * Uses the token up, atomically: of any number of concurrent attempts exactly one gets true. False:
   * it was used already, has expired, or belongs to another artifact.
   */
  async consume(id: string, artifactId: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.store.pool.query({
      name: 'licensing.consume_token',
      text: 'UPDATE licensing.download_token SET used_at = $3 WHERE id = $1 AND artifact_id = $2 AND used_at IS NULL AND expires_at > $3',
      values: [id, artifactId, now],
    });
    return rowCount === 1;
  }

  async state(id: string): Promise<{ artifactId: string; expiresAt: Date; usedAt: Date | null } | undefined> {
    const { rows } = await this.store.pool.query<{ artifactId: string; expiresAt: Date; usedAt: Date | null }>(
      'SELECT artifact_id AS "artifactId", expires_at AS "expiresAt", used_at AS "usedAt" FROM licensing.download_token WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  /** Tokens used or expired more than `before` ago are of no further use. */
  async purge(before: Date): Promise<number> {
    const { rowCount } = await this.store.pool.query('DELETE FROM licensing.download_token WHERE expires_at < $1', [before]);
    return rowCount ?? 0;
  }
}

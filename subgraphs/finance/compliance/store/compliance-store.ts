import type pg from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import type { KycState, VerificationLevel } from '../vocabulary';

export interface VerificationRow {
  id: string;
  userId: string;
  level: VerificationLevel;
  state: KycState;
  provider: string;
  applicantId: string | null;
  firstName: string;
  lastName: string;
  reason: string;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DocumentRow {
  id: string;
  verificationId: string;
  kind: string;
  contentType: string;
  size: number;
  sha256: string;
  objectKey: string;
  createdAt: Date;
}

/** What a transition may set besides the state. */
export interface TransitionPatch {
  reason?: string;
  applicantId?: string;
  submittedAt?: Date;
  reviewedAt?: Date;
  /** Set when verified; cleared otherwise. */
  expiresAt?: Date | null;
}

type Queryable = pg.Pool | pg.PoolClient;

const VERIFICATION = `id, user_id AS "userId", level, state, provider, applicant_id AS "applicantId", first_name AS "firstName", last_name AS "lastName",
  reason, submitted_at AS "submittedAt", reviewed_at AS "reviewedAt", expires_at AS "expiresAt", created_at AS "createdAt", updated_at AS "updatedAt"`;
const DOCUMENT = `id, verification_id AS "verificationId", kind, content_type AS "contentType", size, sha256, object_key AS "objectKey", created_at AS "createdAt"`;

/** SQL of the compliance schema. A state changes only by a conditional UPDATE naming the states it may leave (no lost update). */
export class ComplianceStore {
  constructor(readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  /** Inserts the user's verification at this level; undefined when one exists already. */
  async create(v: Pick<VerificationRow, 'userId' | 'level' | 'provider' | 'firstName' | 'lastName'>): Promise<VerificationRow | undefined> {
    const { rows } = await this.pool.query<VerificationRow>(
      `INSERT INTO compliance.verification (user_id, level, state, provider, first_name, last_name) VALUES ($1, $2, 'unverified', $3, $4, $5)
       ON CONFLICT (user_id, level) DO NOTHING RETURNING ${VERIFICATION}`,
      [v.userId, v.level, v.provider, v.firstName, v.lastName],
    );
    return rows[0];
  }

  async byId(id: string, db: Queryable = this.pool): Promise<VerificationRow | undefined> {
    const { rows } = await db.query<VerificationRow>(`SELECT ${VERIFICATION} FROM compliance.verification WHERE id = $1`, [id]);
    return rows[0];
  }

  async byUser(userId: string): Promise<VerificationRow[]> {
    const { rows } = await this.pool.query<VerificationRow>(`SELECT ${VERIFICATION} FROM compliance.verification WHERE user_id = $1 ORDER BY level`, [userId]);
    return rows;
  }

  async byUserAndLevel(userId: string, level: VerificationLevel): Promise<VerificationRow | undefined> {
    const { rows } = await this.pool.query<VerificationRow>(`SELECT ${VERIFICATION} FROM compliance.verification WHERE user_id = $1 AND level = $2`, [
      userId,
      level,
    ]);
    return rows[0];
  }

  async byApplicant(provider: string, applicantId: string, db: Queryable = this.pool): Promise<VerificationRow | undefined> {
    const { rows } = await db.query<VerificationRow>(`SELECT ${VERIFICATION} FROM compliance.verification WHERE provider = $1 AND applicant_id = $2`, [
      provider,
      applicantId,
    ]);
    return rows[0];
  }

  /** Newest first, optionally in one state (admin console). */
  async list(first: number, state?: KycState): Promise<VerificationRow[]> {
    const { rows } = await this.pool.query<VerificationRow>(
      `SELECT ${VERIFICATION} FROM compliance.verification WHERE $2::text IS NULL OR state = $2 ORDER BY updated_at DESC, id LIMIT $1`,
      [first, state ?? null],
    );
    return rows;
  }

  /** Moves a verification from one of `from` to `to`; undefined when it is in none of them (then nothing changed). */
  async transition(
    id: string,
    from: readonly KycState[],
    to: KycState,
    patch: TransitionPatch = {},
    db: Queryable = this.pool,
  ): Promise<VerificationRow | undefined> {
    const { rows } = await db.query<VerificationRow>(
      `UPDATE compliance.verification SET state = $3, updated_at = now(),
         reason = COALESCE($4, reason), applicant_id = COALESCE($5, applicant_id), submitted_at = COALESCE($6, submitted_at),
         reviewed_at = COALESCE($7, reviewed_at), expires_at = $8
       WHERE id = $1 AND state = ANY($2::text[]) RETURNING ${VERIFICATION}`,
      [id, from, to, patch.reason ?? null, patch.applicantId ?? null, patch.submittedAt ?? null, patch.reviewedAt ?? null, patch.expiresAt ?? null],
    );
    return rows[0];
  }

  /** Records a document while the verification is in one of `states` (locked meanwhile); undefined when it is not. */
  async addDocument(d: Omit<DocumentRow, 'createdAt'>, states: readonly KycState[], store: () => Promise<void>): Promise<DocumentRow | undefined> {
    return inTransaction(this.pool, async (client) => {
      const { rows: locked } = await client.query('SELECT 1 FROM compliance.verification WHERE id = $1 AND state = ANY($2::text[]) FOR UPDATE', [
        d.verificationId,
        states,
      ]);
      if (!locked.length) return undefined;
      // the bytes first: a row never names an object that is not there
      await store();
      const { rows } = await client.query<DocumentRow>(
        // a retried upload (the same derived id) answers the row it stored
        `INSERT INTO compliance.document (id, verification_id, kind, content_type, size, sha256, object_key) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id RETURNING ${DOCUMENT}`,
        [d.id, d.verificationId, d.kind, d.contentType, d.size, d.sha256, d.objectKey],
      );
      return rows[0];
    });
  }

  async document(id: string, db: Queryable = this.pool): Promise<DocumentRow | undefined> {
    const { rows } = await db.query<DocumentRow>(`SELECT ${DOCUMENT} FROM compliance.document WHERE id = $1`, [id]);
    return rows[0];
  }

  async documents(verificationIds: readonly string[]): Promise<DocumentRow[]> {
    const { rows } = await this.pool.query<DocumentRow>(
      `SELECT ${DOCUMENT} FROM compliance.document WHERE verification_id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [verificationIds],
    );
    return rows;
  }

  /**
   * Applies a provider's webhook delivery once: records it and runs `apply` in one transaction, so a
   * delivery seen before (a retry, a replay) changes nothing and a failed one can be delivered again.
   * False when it was seen before.
   */
  async onceDelivery<T>(provider: string, deliveryId: string, apply: (db: pg.PoolClient) => Promise<T>): Promise<{ fresh: boolean; result?: T }> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query('INSERT INTO compliance.webhook_delivery (provider, delivery_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        provider,
        deliveryId,
      ]);
      if (!rowCount) return { fresh: false };
      return { fresh: true, result: await apply(client) };
    });
  }

  /**
   * Runs `work` on the user's verifications under a per-user lock (a transaction-scoped advisory
   * lock): two decisions for one user at once write their level one after the other, each from a
   * read that saw the other's state.
   */
  async underUserLock<T>(userId: string, work: (verifications: VerificationRow[]) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('compliance.level:' || $1))`, [userId]);
      const { rows } = await client.query<VerificationRow>(`SELECT ${VERIFICATION} FROM compliance.verification WHERE user_id = $1 ORDER BY level`, [userId]);
      return work(rows);
    });
  }

  /** Verified verifications whose expiry has passed become `expired`; answers them. */
  async expireDue(now: Date): Promise<VerificationRow[]> {
    const { rows } = await this.pool.query<VerificationRow>(
      `UPDATE compliance.verification SET state = 'expired', expires_at = NULL, updated_at = now()
       WHERE state = 'verified' AND expires_at <= $1 RETURNING ${VERIFICATION}`,
      [now],
    );
    return rows;
  }

  async counts(): Promise<{ total: number; awaitingReview: number }> {
    const { rows } = await this.pool.query<{ total: number; awaitingReview: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE state IN ('pending', 'in_review')))::int AS "awaitingReview" FROM compliance.verification`,
    );
    return rows[0];
  }
}

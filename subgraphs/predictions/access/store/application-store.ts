import type { EntityManager } from 'typeorm';
import type { Store } from '../../../../lib/database';

export type ApplicationStatus = 'unconfirmed' | 'pending' | 'approved' | 'rejected';
export type ApplicationSource = 'form' | 'email';

export interface ApplicationRow {
  id: string;
  name: string;
  email: string;
  usage: string;
  source: ApplicationSource;
  status: ApplicationStatus;
  messageId: string | null;
  planCode: 'free' | 'pro' | 'enterprise' | null;
  keyId: string | null;
  /** Public prefix of the issued key (never the key). */
  keyPrefix: string | null;
  decidedAt: Date | null;
  decidedBy: string | null;
  rejectionReason: string | null;
  /** When the applicant confirmed the e-mail address (the link mailed to it). */
  confirmedAt: Date | null;
  createdAt: Date;
  /** The prediction API's origin as the applicant's request named it (null: no HTTP request). */
  origin: string | null;
}

export interface NewApplication {
  name: string;
  email: string;
  usage: string;
  usageDigest: string;
  source: ApplicationSource;
  messageId: string | null;
  origin: string | null;
}

/** Inside a decision's transaction, with the application's row locked. */
export interface Decision {
  /** The transaction: the key is issued in it, so a failed decision issues nothing. */
  tx: EntityManager;
  /** undefined: the application was no longer pending. */
  approve(d: { planCode: string; keyId: string; decidedBy: string; decidedAt: Date }): Promise<ApplicationRow | undefined>;
  reject(d: { reason: string | null; decidedBy: string; decidedAt: Date }): Promise<ApplicationRow | undefined>;
}

const COLUMNS = `a.id, a.name, a.email, a.usage, a.source, a.status, a.message_id AS "messageId", a.plan_code AS "planCode",
  a.key_id AS "keyId", k.prefix AS "keyPrefix", a.decided_at AS "decidedAt", a.decided_by AS "decidedBy",
  a.rejection_reason AS "rejectionReason", a.confirmed_at AS "confirmedAt", a.created_at AS "createdAt", a.origin`;
const FROM = 'access.application a LEFT JOIN access.api_key k ON k.id = a.key_id';

type Query = (text: string, values: unknown[]) => Promise<ApplicationRow[]>;

/** SQL for access applications. */
export class ApplicationStore {
  constructor(private readonly store: Store) {}

  private readonly query: Query = async (text, values) => (await this.store.pool.query<ApplicationRow>(text, values)).rows;

  /**
   * Inserts the application unless an open one (unconfirmed, pending or approved) with the same e-mail address
   * and usage exists, or one from the same e-mail message: then that one is returned. The unique
   * indexes decide, so two identical submissions at the same moment still make one application.
   */
  async insertOrFind(a: NewApplication): Promise<{ row: ApplicationRow; created: boolean }> {
    // a conflicting application rejected between the INSERT and the SELECT frees the slot: try again
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.query(
        `INSERT INTO access.application (name, email, usage, usage_digest, source, message_id, origin)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
        [a.name, a.email, a.usage, a.usageDigest, a.source, a.messageId, a.origin],
      );
      if (inserted[0]) return { row: (await this.findById(inserted[0].id))!, created: true };
      const existing = await this.query(
        `SELECT ${COLUMNS} FROM ${FROM}
          WHERE ($3::text IS NOT NULL AND a.message_id = $3)
             OR (lower(a.email) = lower($1) AND a.usage_digest = $2 AND a.status IN ('unconfirmed', 'pending', 'approved'))
          ORDER BY a.created_at LIMIT 1`,
        [a.email, a.usageDigest, a.messageId],
      );
      if (existing[0]) return { row: existing[0], created: false };
    }
    throw new Error('application insert kept conflicting');
  }

  /** Stores the digest of a new confirmation link (the previous link no longer works), while the application is unconfirmed. */
  async setConfirmation(id: string, digest: Buffer, sentAt: Date): Promise<boolean> {
    const { rowCount } = await this.store.pool.query(
      `UPDATE access.application SET confirmation_digest = $2, confirmation_sent_at = $3 WHERE id = $1 AND status = 'unconfirmed'`,
      [id, digest, sentAt],
    );
    return rowCount === 1;
  }

  /**
   * Confirms the application whose link has this digest, if it was sent after `sentAfter`: it
   * becomes pending (for review). Returns the application as it is now (confirmed just now or
   * before), or undefined for an unknown digest or an unconfirmed application whose link expired.
   */
  async confirm(digest: Buffer, sentAfter: Date, now: Date): Promise<{ row: ApplicationRow; confirmedNow: boolean } | undefined> {
    const [confirmed] = await this.query(
      `WITH a AS (
         UPDATE access.application SET status = 'pending', confirmed_at = $3
          WHERE confirmation_digest = $1 AND status = 'unconfirmed' AND confirmation_sent_at > $2 RETURNING *)
       SELECT ${COLUMNS} FROM a LEFT JOIN access.api_key k ON k.id = a.key_id`,
      [digest, sentAfter, now],
    );
    if (confirmed) return { row: confirmed, confirmedNow: true };
    const row = await this.findByConfirmation(digest, sentAfter);
    return row && row.status !== 'unconfirmed' ? { row, confirmedNow: false } : undefined;
  }

  /** The application a confirmation link names, unless the link expired before it was used. */
  async findByConfirmation(digest: Buffer, sentAfter: Date): Promise<ApplicationRow | undefined> {
    return (
      await this.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.confirmation_digest = $1 AND (a.status <> 'unconfirmed' OR a.confirmation_sent_at > $2)`, [
        digest,
        sentAfter,
      ])
    )[0];
  }

  async findById(id: string): Promise<ApplicationRow | undefined> {
    return (await this.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.id = $1`, [id]))[0];
  }

  /** Newest first. */
  list(opts: { status: ApplicationStatus | null; limit: number }): Promise<ApplicationRow[]> {
    return this.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE ($1::text IS NULL OR a.status = $1) ORDER BY a.created_at DESC, a.id LIMIT $2`, [
      opts.status,
      opts.limit,
    ]);
  }

  /**
   * Runs `work` in a transaction holding the application's row lock: a second decision on the same
   * application waits, then sees the first one's outcome. Nothing is kept when `work` throws.
   */
  decide<T>(id: string, work: (current: ApplicationRow | undefined, decision: Decision) => Promise<T>): Promise<T> {
    return this.store.dataSource.transaction(async (tx) => {
      const query: Query = (text, values) => tx.query(text, values);
      const [current] = await query(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.id = $1 FOR UPDATE OF a`, [id]);
      // guarded by the status as well as the lock: a decision is only ever taken on a pending application
      const update = async (set: string, values: unknown[]) =>
        (
          await query(
            `WITH a AS (UPDATE access.application SET ${set} WHERE id = $1 AND status = 'pending' RETURNING *)
             SELECT ${COLUMNS} FROM a LEFT JOIN access.api_key k ON k.id = a.key_id`,
            [id, ...values],
          )
        )[0];
      return work(current, {
        tx,
        approve: (d) =>
          update(`status = 'approved', plan_code = $2, key_id = $3, decided_by = $4, decided_at = $5`, [d.planCode, d.keyId, d.decidedBy, d.decidedAt]),
        reject: (d) => update(`status = 'rejected', rejection_reason = $2, decided_by = $3, decided_at = $4`, [d.reason, d.decidedBy, d.decidedAt]),
      });
    });
  }
}

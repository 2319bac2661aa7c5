import type pg from 'pg';
import { inTransaction, type Notifications } from '../../../lib/database';
import type { JobQueue } from '../../../lib/jobs';
import type { Logger } from '../../../lib/logger';
import type { SupergraphClient } from '../../../lib/supergraph-client';

/**
 * The node's audit log (node.audit_log, shown at /admin/audit/) as the other finance subgraphs write to
 * it: a transactional outbox. A domain service records an entry in its own schema's `audit_outbox`
 * table IN THE TRANSACTION of the change it audits (`AuditOutbox.record`, given that transaction's
 * client): the change and its audit entry commit together or not at all. The relay (`startAuditRelay`,
 * a pg-boss job of the subgraph) then forwards pending entries to the node subgraph's `recordNodeAudit`
 * as this subgraph's service principal (AUDIT_WRITERS), with the entry's id: the node inserts it once
 * (ON CONFLICT DO NOTHING), so a re-send after a crash between delivery and `sent_at` never duplicates
 * it. While the node cannot take it, the entry stays pending and the job retries with back-off (and
 * a schedule every minute picks up what is left); nothing is lost.
 *
 * `actor` is `admin:<user name>` for the admin console's operators, as the node subgraph writes it.
 */

/** A connection inside the transaction of the change (a pg PoolClient between BEGIN and COMMIT). */
export type AuditDb = Pick<pg.PoolClient, 'query'>;

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

/** How the relay hands an entry to the node's audit log (idempotent by `id`). */
export type AuditDelivery = (entry: AuditEntry) => Promise<void>;

const RECORD = `mutation RecordNodeAudit($id: ID, $actor: String!, $action: String!, $detail: String!) {
  recordNodeAudit(id: $id, actor: $actor, action: $action, detail: $detail)
}`;

/** Delivery through the supergraph, as the subgraph's service principal. */
export const deliverThroughSupergraph =
  (supergraph: SupergraphClient): AuditDelivery =>
  async (e) => {
    await supergraph.request(RECORD, { id: e.id, actor: e.actor, action: e.action, detail: JSON.stringify(e.detail) });
  };

/** How an operator of the admin console is named in the audit log. */
export const adminActor = (username: string) => `admin:${username}`;

const ACTION = /^[a-z_]+\.[a-z_]+$/;
const BATCH = 100;

/** The SQL of a subgraph's `audit_outbox` table (its migration runs it in the subgraph's schema). */
export function auditOutboxDdl(schema: string): { up: string[]; down: string[] } {
  return {
    up: [
      `CREATE TABLE ${schema}.audit_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor text NOT NULL,
        action text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'::jsonb,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        sent_at timestamptz
      )`,
      `CREATE INDEX audit_outbox_pending ON ${schema}.audit_outbox (created_at, id) WHERE sent_at IS NULL`,
    ],
    down: [`DROP TABLE ${schema}.audit_outbox`],
  };
}

/** The NOTIFY channel that tells a subgraph's relay an entry committed (sent by PostgreSQL at COMMIT only). */
export const auditChannel = (schema: string) => `${schema}_audit_outbox`;

/** The pg-boss queue of a subgraph's relay. */
export const auditQueue = (schema: string) => `${schema}-audit-outbox`;

/** The relay job's retries: 1 s, 2 s, 4 s … while the node cannot take an entry; the schedule catches up after. */
export const RELAY_RETRY = { retryLimit: 8, retryDelay: 1, retryBackoff: true, expireInSeconds: 120 };

export interface RelayOutcome {
  sent: number;
  /** Entries still pending after this pass (delivery failed, or more than a batch). */
  pending: number;
  /** The first delivery failure, if any (the relay stops at it: the node is likely down). */
  error?: string;
}

export class AuditOutbox {
  constructor(
    /** The subgraph's PostgreSQL schema (its `audit_outbox` table). */
    readonly schema: string,
    private readonly pool: pg.Pool,
    private readonly deliver: AuditDelivery,
  ) {
    if (!/^[a-z_]+$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
  }

  /**
   * Records an audit entry in the caller's transaction (`db`): it exists once that transaction
   * commits, and never if it rolls back. The relay hears of it at the commit (NOTIFY).
   */
  async record(db: AuditDb, actor: string, action: string, detail: Record<string, unknown> = {}): Promise<string> {
    if (!ACTION.test(action)) throw new Error(`an audit action is <object>.<verb>: ${action}`);
    if (!actor || actor.length > 200) throw new Error('an audit entry names its actor');
    const { rows } = await db.query<{ id: string }>(
      `WITH e AS (INSERT INTO ${this.schema}.audit_outbox (actor, action, detail) VALUES ($1, $2, $3::jsonb) RETURNING id)
       SELECT e.id, pg_notify($4, e.id::text) FROM e`,
      [actor, action, JSON.stringify(detail), auditChannel(this.schema)],
    );
    return rows[0].id;
  }

  /** Records an entry in a transaction of its own (a change that is a single statement elsewhere: prefer `record` in its transaction). */
  async recordAlone(actor: string, action: string, detail: Record<string, unknown> = {}): Promise<string> {
    return this.record(this.pool, actor, action, detail);
  }

  /**
   * Forwards pending entries, oldest first, and marks each sent once the node took it. Concurrent
   * relays (two replicas) skip the rows the other holds; a crash after delivery re-sends on the next
   * pass, which the node ignores (same id). Stops at the first failure (recorded on the row).
   */
  async relay(limit = BATCH): Promise<RelayOutcome> {
    let sent = 0;
    let error: string | undefined;
    for (let full = true; full && !error;) {
      const pass = await this.relayBatch(limit);
      sent += pass.sent;
      error = pass.error;
      full = pass.taken === limit;
    }
    return { sent, pending: await this.pendingCount(), error };
  }

  /** One batch, locked while it is delivered (a second relay takes other rows, or none). */
  private relayBatch(limit: number): Promise<{ taken: number; sent: number; error?: string }> {
    return inTransaction(this.pool, async (client) => {
      const { rows: batch } = await client.query<AuditEntry>(
        `SELECT id, actor, action, detail FROM ${this.schema}.audit_outbox WHERE sent_at IS NULL
          ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      let sent = 0;
      for (const entry of batch) {
        try {
          await this.deliver(entry);
        } catch (err) {
          const error = (err as Error).message.slice(0, 1000);
          await client.query(`UPDATE ${this.schema}.audit_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [entry.id, error]);
          return { taken: batch.length, sent, error };
        }
        await client.query(`UPDATE ${this.schema}.audit_outbox SET attempts = attempts + 1, last_error = NULL, sent_at = now() WHERE id = $1`, [entry.id]);
        sent++;
      }
      return { taken: batch.length, sent };
    });
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.schema}.audit_outbox WHERE sent_at IS NULL`);
    return rows[0].n;
  }
}

/**
 * Starts a subgraph's relay on the project's job queue: a job on each committed entry (NOTIFY), retried
 * with back-off while delivery fails, and a schedule every minute as the safety net (entries of a
 * process that stopped before relaying them, retries given up). Stopped with the job queue.
 */
export async function startAuditRelay(outbox: AuditOutbox, deps: { jobs: JobQueue; notifications: Notifications; logger: Logger }): Promise<void> {
  const queue = auditQueue(outbox.schema);
  const log = deps.logger.child({ auditOutbox: outbox.schema });
  await deps.jobs.boss.createQueue(queue, { name: queue, policy: 'stately' });
  deps.jobs.work(
    queue,
    async () => {
      const outcome = await outbox.relay();
      if (outcome.sent) log.info({ sent: outcome.sent }, 'audit entries delivered');
      // a failure fails the job: pg-boss retries it (RELAY_RETRY); the entries wait meanwhile
      if (outcome.error) throw new Error(`audit entries pending (${outcome.pending}): ${outcome.error}`);
    },
    { pollingIntervalSeconds: 1 },
  );
  const kick = () =>
    void deps.jobs.boss.send(queue, {}, RELAY_RETRY).catch((err: Error) => log.warn({ err: { message: err.message } }, 'audit relay: could not queue'));
  deps.notifications.on(auditChannel(outbox.schema), kick);
  await deps.jobs.boss.schedule(queue, '* * * * *', {}, RELAY_RETRY);
  kick(); // entries left by an earlier run
}

import type { Store } from '../../../../lib/database';
import type { Queryable } from './licence-store';

export interface AuditEventRow {
  id: number;
  at: Date;
  action: string;
  actor: string;
  organisationId: string | null;
  licenceId: string | null;
  subjectType: string;
  subjectId: string;
  details: Record<string, unknown>;
}

export type NewAuditEvent = Omit<AuditEventRow, 'id' | 'at' | 'organisationId' | 'licenceId'> & {
  organisationId?: string | null;
  licenceId?: string | null;
  at?: Date;
};

export interface AuditFilter {
  licenceId?: string | null;
  organisationId?: string | null;
  actions?: readonly string[] | null;
  since?: Date | null;
  /** Events with a smaller id (keyset paging, newest first). */
  before?: number | null;
  first: number;
}

/** The audit trail: append-only rows, written in the transaction of the change they record. */
export class AuditStore {
  constructor(private readonly store: Store) {}

  async insert(db: Queryable | undefined, events: readonly NewAuditEvent[]): Promise<void> {
    if (!events.length) return;
    await (db ?? this.store.pool).query(
      `INSERT INTO licensing.audit_event (at, action, actor, organisation_id, licence_id, subject_type, subject_id, details)
       SELECT coalesce(e.at, now()), e.action, e.actor, e.organisation_id, e.licence_id, e.subject_type, e.subject_id, coalesce(e.details, '{}')
         FROM jsonb_to_recordset($1::jsonb) AS e(at timestamptz, action text, actor text, organisation_id uuid, licence_id uuid, subject_type text, subject_id text, details jsonb)`,
      [
        JSON.stringify(
          events.map((e) => ({
            at: e.at ?? null,
            action: e.action,
            actor: e.actor,
            organisation_id: e.organisationId ?? null,
            licence_id: e.licenceId ?? null,
            subject_type: e.subjectType,
            subject_id: e.subjectId,
            details: e.details,
          })),
        ),
      ],
    );
  }

  async list(filter: AuditFilter): Promise<AuditEventRow[]> {
    const { rows } = await this.store.pool.query<AuditEventRow>(
      `SELECT id, at, action, actor, organisation_id AS "organisationId", licence_id AS "licenceId", subject_type AS "subjectType",
              subject_id AS "subjectId", details
         FROM licensing.audit_event
        WHERE ($1::uuid IS NULL OR licence_id = $1) AND ($2::uuid IS NULL OR organisation_id = $2) AND ($3::text[] IS NULL OR action = ANY($3))
          AND ($4::timestamptz IS NULL OR at >= $4) AND ($5::bigint IS NULL OR id < $5)
        ORDER BY id DESC LIMIT $6`,
      [filter.licenceId ?? null, filter.organisationId ?? null, filter.actions ?? null, filter.since ?? null, filter.before ?? null, filter.first],
    );
    return rows;
  }
}

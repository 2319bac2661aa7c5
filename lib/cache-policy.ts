import type { Store } from './database';

/**
 * What the gateway's response cache may keep of a subgraph's answers (gateway/response-cache.ts),
 * declared once in the subgraph's folder next to its schema. The gateway knows only the list
 * (subgraphs/products.ts: cachePoliciesOf); an operation is cached only when every field it selects is declared here by
 * every subgraph that resolves that field.
 */
export interface CachePolicy {
  /** Root query fields whose answer is the same whoever asks it (given the same arguments). */
  queries: readonly string[];
  /** Types each field of which, as this subgraph resolves it, is the same whoever asks. */
  types: readonly string[];
  /**
   * The tables those answers are read from, in the subgraph's schema: each carries the trigger of
   * `dataChangeTriggers` (a migration), so that any change to them, by whatever process or path,
   * evicts the answers in every gateway.
   */
  tables: readonly string[];
  /** Other subgraphs whose data these answers include (read through the supergraph as a service): their changes evict them too. */
  reads?: readonly string[];
}

/** A subgraph's policy with the schema its tables live in (the tag of its answers in the cache). */
export type SubgraphCachePolicy = CachePolicy & { schema: string };

/** The NOTIFY channel of those triggers; the payload is the schema whose tables changed. */
export const DATA_CHANGED = 'data_changed';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * How the tables announce their changes:
 * - `statement` (the first form): every statement that writes to one of them, whether or not it
 *   changed a row: an UPDATE that rewrites a row as it was, or an upsert of the same data, evicts too;
 * - `row`: every row inserted or deleted, every row an UPDATE changes (`OLD.* IS DISTINCT FROM NEW.*`)
 *   and every TRUNCATE; a statement that leaves every row as it was announces nothing. PostgreSQL
 *   folds the identical notifications of one transaction into one, so a statement over many rows
 *   still sends one. Every column needs an equality operator: a json column (not jsonb) makes an UPDATE
 *   that has to compare it fail ("could not identify an equality operator for type json").
 */
export type DataChangeTriggerForm = 'statement' | 'row';

const TRIGGERS = ['announce_data_change', 'announce_data_update', 'announce_data_truncate'];

/**
 * The migration statements that make the changes to `tables` announce themselves on DATA_CHANGED at
 * commit (a rolled-back change announces nothing), in the given form. Each form's `up` first drops
 * the other's triggers, so a migration moves from one form to the other by running the new form's up
 * (and back by the old one's).
 */
export function dataChangeTriggers(schema: string, tables: readonly string[], form: DataChangeTriggerForm): { up: string[]; down: string[] } {
  const fn = `${ident(schema)}.announce_data_change`;
  const dropTriggers = tables.flatMap((t) => TRIGGERS.map((name) => `DROP TRIGGER IF EXISTS ${name} ON ${ident(schema)}.${ident(t)}`));
  const create = (t: string): string[] => {
    const table = `${ident(schema)}.${ident(t)}`;
    if (form === 'statement') {
      return [`CREATE TRIGGER announce_data_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`];
    }
    return [
      `CREATE TRIGGER announce_data_change AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER announce_data_update AFTER UPDATE ON ${table} FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER announce_data_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    ];
  };
  return {
    up: [
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN PERFORM pg_notify('${DATA_CHANGED}', TG_TABLE_SCHEMA); RETURN NULL; END $$`,
      ...dropTriggers,
      ...tables.flatMap(create),
    ],
    down: [...dropTriggers, `DROP FUNCTION IF EXISTS ${fn}()`],
  };
}

/**
 * Announces a change of the store's cached data once more. A subgraph that keeps an in-memory copy of
 * those tables (a catalogue, the active model) calls it when its copy is fresh again: an answer made
 * from the old copy after the tables' own announcement, and cached, is evicted then.
 */
export async function announceDataChange(store: Pick<Store, 'pool' | 'schema'>): Promise<void> {
  await store.pool.query('SELECT pg_notify($1, $2)', [DATA_CHANGED, store.schema]);
}

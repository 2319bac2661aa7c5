import { Directive, Field, ObjectType } from 'type-graphql';
import type { Store } from '../../../lib/database';
import { databaseCheck } from '../../../lib/probes';

/**
 * Readiness of one subgraph's store, the same type in every subgraph that reports it (@shareable):
 * the database answers and every migration of the subgraph's schema is applied.
 */
@Directive('@shareable')
@ObjectType({ simpleResolvers: true, description: "A subgraph's readiness: its database answers and its migrations are applied." })
export class StoreReadiness {
  @Field() subgraph: string;
  @Field() ready: boolean;
  @Field() database: boolean;
  @Field(() => [String], { description: 'Migrations not applied yet.' }) pendingMigrations: string[];
}

export async function storeReadiness(subgraph: string, store: Store, timeoutMs = 2_000): Promise<StoreReadiness> {
  try {
    const work = (async () => {
      // the one readiness rule of every surface (lib/probes.ts): the database takes a new connection and
      // answers, whatever connections the pool still holds; then this subgraph's migrations are applied
      await databaseCheck(store.pool.options)();
      await store.pool.query('SELECT 1');
      const applied = new Set((await store.pool.query<{ name: string }>(`SELECT name FROM "${store.schema}".migrations`)).rows.map((r) => r.name));
      return store.dataSource.migrations.map((m) => m.name ?? m.constructor.name).filter((name) => !applied.has(name));
    })();
    const pending = await Promise.race([work, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref())]);
    return { subgraph, ready: pending.length === 0, database: true, pendingMigrations: pending };
  } catch {
    return { subgraph, ready: false, database: false, pendingMigrations: [] };
  }
}

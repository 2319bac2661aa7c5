import 'reflect-metadata';
import pg from 'pg';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Logger } from './logger';

// COUNT(*) and bigint ids fit in a JS number for this system's sizes; numeric stays a string (money).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** What a subgraph declares about its own tables: one Postgres schema, its entities and migrations. */
export interface StoreDefinition {
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

/** An open connection to one subgraph's schema: TypeORM for rich queries, the pg pool for hot paths. */
export interface Store {
  readonly schema: string;
  /** The database's URL (for a dedicated connection, such as a lease held by a long job). */
  readonly url: string;
  readonly dataSource: DataSource;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  url: string;
  poolSize: number;
  logger: Logger;
  /** Run pending migrations (under an advisory lock, so replicas starting together do not race). */
  migrate: boolean;
}

export async function openStore(def: StoreDefinition, opts: OpenStoreOptions): Promise<Store> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: opts.url,
    schema: def.schema,
    entities: def.entities,
    migrations: def.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    logging: false,
    // a connection attempt to an unreachable server fails after 5 s (503 for the caller) instead of waiting forever
    extra: { max: opts.poolSize, application_name: `matchday:${def.schema}`, connectionTimeoutMillis: 5_000 },
  });
  await dataSource.initialize();
  if (opts.migrate) await migrate(dataSource, def.schema, opts.logger);
  const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
  let closed = false;
  return {
    schema: def.schema,
    url: opts.url,
    dataSource,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await dataSource.destroy();
    },
  };
}

async function migrate(dataSource: DataSource, schema: string, logger: Logger): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations();
    if (applied.length) logger.info({ schema, migrations: applied.map((m) => m.name) }, 'migrations applied');
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await runner.release();
  }
}

/** Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Creates the database named in `url` if it does not exist (connects to the `postgres` maintenance db). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL has no database name');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    // another process created it first (23505: both passed the check at the same moment)
    const code = (err as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw err;
  } finally {
    await client.end();
  }
}

/** The NOTIFY channels one subgraph listens on; the runtime closes them all when it stops. */
export class Notifications {
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  on(channel: string, handler: (payload: string) => void): void {
    this.stops.push(listen(this.url, channel, handler, this.logger));
  }

  async close(): Promise<void> {
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
  }
}

/**
 * Runs `handler` for each NOTIFY on `channel`, on a dedicated connection that reconnects after
 * failures. Returns a function that stops listening.
 */
export function listen(url: string, channel: string, handler: (payload: string) => void, logger: Logger): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, application_name: `matchday:listen:${channel}` });
    c.on('notification', (n) => {
      if (n.channel === channel) handler(n.payload ?? '');
    });
    c.on('error', (err) => {
      logger.warn({ err, channel }, 'notification connection lost; reconnecting');
      c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
      client = c;
    } catch (err) {
      logger.warn({ err, channel }, 'could not listen; retrying');
      c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

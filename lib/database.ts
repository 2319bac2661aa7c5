import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Config } from './config';
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
  /** DB_QUERY_TIMEOUT_MS: each statement's bound (0: none). Default DEFAULT_QUERY_TIMEOUT_MS. */
  queryTimeoutMs?: number;
}

/** The pool settings of the configuration (DB_POOL_SIZE, DB_QUERY_TIMEOUT_MS). */
export const poolOptions = (config: Pick<Config, 'DB_POOL_SIZE' | 'DB_QUERY_TIMEOUT_MS'>) => ({
  poolSize: config.DB_POOL_SIZE,
  queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS,
});

/** Default of DB_QUERY_TIMEOUT_MS: every statement of a request, and every wait for a pool connection, ends within it. */
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;

export async function openStore(def: StoreDefinition, opts: OpenStoreOptions): Promise<Store> {
  const timeout = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const options = {
    type: 'postgres' as const,
    url: opts.url,
    schema: def.schema,
    entities: def.entities,
    migrations: def.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
    synchronize: false,
    logging: false,
  };
  // migrations take the time they need: their own short-lived pool, without the statement timeout
  if (opts.migrate) {
    const migrating = new DataSource({ ...options, extra: { max: 2, application_name: `matchday:${def.schema}:migrate`, connectionTimeoutMillis: 5_000 } });
    await migrating.initialize();
    try {
      await migrate(migrating, def.schema, opts.logger);
    } finally {
      await migrating.destroy();
    }
  }
  const dataSource = new DataSource({
    ...options,
    // a connection attempt to an unreachable server, or a wait for a free connection, fails after 5 s
    // (503 for the caller) instead of waiting forever; so does a statement (the server cancels it;
    // the client gives up on a server that does not answer at all, e.g. stopped)
    extra: {
      max: opts.poolSize,
      application_name: `matchday:${def.schema}`,
      connectionTimeoutMillis: 5_000,
      ...(timeout > 0 ? { statement_timeout: timeout, query_timeout: timeout + 500 } : {}),
    },
  });
  await dataSource.initialize();
  const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
  if (timeout > 0) dropTimedOutConnections(pool);
  if (nestedConnectionsChecked()) guardNestedConnections(pool, def.schema, opts.logger);
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

/**
 * A connection whose statement got no answer in time (node-postgres's `query_timeout`: "Query read
 * timeout") may still be running it, or be inside a transaction nobody will finish: it is closed, so
 * that the pool never hands it out again (queries queued on it fail as a lost connection, 503).
 */
function dropTimedOutConnections(pool: pg.Pool): void {
  const guard = (client: pg.PoolClient | pg.Client) => {
    const guarded = client as typeof client & { [GUARDED]?: true; connection?: { stream?: { destroy(): void } } };
    if (guarded[GUARDED]) return;
    guarded[GUARDED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const drop = (err: unknown) => {
      if (err instanceof Error && err.message === 'Query read timeout') guarded.connection?.stream?.destroy();
    };
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (err: unknown, ...rest: unknown[]) => {
          drop(err);
          return (last as (...a: unknown[]) => unknown)(err, ...rest);
        };
        return query(...args);
      }
      const result = query(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, drop);
      return result;
    };
  };
  pool.on('connect', guard);
  for (const client of (pool as unknown as { _clients?: pg.PoolClient[] })._clients ?? []) guard(client);
}
const GUARDED = Symbol('matchday:guarded');

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

/**
 * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back when
 * it throws. `work` uses `client` for every query of that database: see guardNestedConnections.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = nestedConnectionsChecked()
      ? await inTransactionOf.run(new Set([...(inTransactionOf.getStore() ?? []), pool]), () => work(client))
      : await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The pools of which the current async flow holds a connection in a transaction (inTransaction). */
const inTransactionOf = new AsyncLocalStorage<ReadonlySet<pg.Pool>>();

/**
 * Whether inTransaction tracks its flow (DB_NESTED_CONNECTIONS: `fail`, `report`, `off`; default `report`,
 * and `off` when NODE_ENV=production). Tracking runs the flow in an AsyncLocalStorage, and on Node 20 one
 * AsyncLocalStorage.run turns on the promise hooks for the rest of the process: every promise of every
 * request pays for them (in a CPU profile of the cached latest predictions, the hooks' own frames were ~5 % of the samples).
 * The test suite (`fail`) and development keep the check; production does without it.
 */
export function nestedConnectionsChecked(env: NodeJS.ProcessEnv = process.env): boolean {
  const mode = env.DB_NESTED_CONNECTIONS ?? (env.NODE_ENV === 'production' ? 'off' : 'report');
  return mode !== 'off';
}

/**
 * A second connection of a pool taken while the same flow holds one of its connections in a transaction
 * is a latent deadlock: under load every other connection is held by callers queued behind this
 * transaction's locks, so the second one waits for the pool's bound and the request fails (503) with
 * nothing wrong but the code. It is reported (error log, with the stack), and refused where
 * DB_NESTED_CONNECTIONS=fail (the test suite sets it), so the suite finds every such path.
 */
function guardNestedConnections(pool: pg.Pool, schema: string, logger: Logger): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  const reported = new Set<string>();
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    if (inTransactionOf.getStore()?.has(pool)) {
      const error = new Error(`a second connection of the ${schema} pool taken inside a transaction on the same pool: pass the transaction's client`);
      if (process.env.DB_NESTED_CONNECTIONS === 'fail') throw error;
      if (!reported.has(error.stack ?? '')) {
        reported.add(error.stack ?? '');
        logger.error({ schema, stack: error.stack }, error.message);
      }
    }
    return connect(...args);
  };
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

/**
 * The NOTIFY channels one subgraph listens on, over its process's connection to the database
 * (NotificationListener); the runtime closes them all when it stops.
 */
export class Notifications {
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(private readonly listener: NotificationListener) {}

  /** `listening`, when given, learns whether the channel's notifications arrive (NotificationListener.listen). */
  on(channel: string, handler: (payload: string) => void, listening?: (listening: boolean) => void): void {
    this.stops.push(this.listener.listen(channel, handler, listening));
  }

  /** A mark of the handlers registered so far: `stopSince(mark)` stops those registered after it. */
  mark(): number {
    return this.stops.length;
  }

  /** Stops the handlers registered after `mark` (a start that failed half-way, lib/subgraph-start.ts). */
  async stopSince(mark: number): Promise<void> {
    await Promise.all(this.stops.splice(mark).map((stop) => stop()));
  }

  async close(): Promise<void> {
    await this.stopSince(0);
  }
}

const RECONNECT_MS = 1000;

/**
 * ONE dedicated LISTEN connection to a database for a whole process: every subgraph (and every
 * channel) of the process on that database shares it, the channels multiplexed on it, instead of a
 * connection per channel. After the connection fails (an outage, a restart, a terminated backend) it
 * reconnects every second and LISTENs again on every channel that still has a handler; what was
 * notified in between is lost (the caches it evicts keep a TTL as a backstop).
 */
export class NotificationListener {
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  /** Per channel: who wants to know whether its notifications arrive (see `listen`). */
  private readonly watchers = new Map<string, Set<(listening: boolean) => void>>();
  private client: pg.Client | undefined;
  private connecting = false;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** LISTEN and UNLISTEN one after the other (pg wants one query at a time on a client). */
  private commands: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs `handler` for each NOTIFY on `channel`. Returns a function that stops it. `listening`, when
   * given, learns whether the channel's notifications arrive: true once the channel is LISTENed to (at
   * first and after every reconnection), false when the connection is lost (what is notified from
   * then until the next true is missed). A cache evicted by the channel depends on it.
   */
  listen(channel: string, handler: (payload: string) => void, listening?: (listening: boolean) => void): () => Promise<void> {
    if (this.closed) throw new Error('The notification listener is closed.');
    let handlers = this.handlers.get(channel);
    const added = !handlers;
    if (!handlers) this.handlers.set(channel, (handlers = new Set()));
    handlers.add(handler);
    let watchers = this.watchers.get(channel);
    if (listening) {
      if (!watchers) this.watchers.set(channel, (watchers = new Set()));
      watchers.add(listening);
    }
    if (this.client && added) void this.command(this.client, `LISTEN ${quoteIdent(channel)}`).then((ok) => ok && this.tell(channel, true));
    else if (this.client && listening) void this.commands.then(() => this.client && listening(true));
    else if (!this.client && !this.connecting && !this.retry) void this.connect();
    return async () => {
      handlers.delete(handler);
      if (listening) watchers?.delete(listening);
      if (handlers.size > 0 || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      this.watchers.delete(channel);
      if (this.client) await this.command(this.client, `UNLISTEN ${quoteIdent(channel)}`);
    };
  }

  private tell(channel: string, listening: boolean) {
    for (const watcher of this.watchers.get(channel) ?? []) watcher(listening);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    if (this.closed || this.handlers.size === 0) return;
    this.connecting = true;
    const c = new pg.Client({ connectionString: this.url, application_name: 'matchday:listen' });
    c.on('notification', (n) => {
      for (const handler of this.handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
    const lost = (err?: Error) => {
      if (this.client !== c) return;
      this.logger.warn({ err }, 'notification connection lost; reconnecting');
      this.client = undefined;
      for (const channel of this.watchers.keys()) this.tell(channel, false);
      c.end().catch(() => undefined);
      this.reconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      if (this.closed) return void (await c.end().catch(() => undefined));
      this.client = c;
      // a channel added from here on sends its own LISTEN (listen() sees the client)
      const channels = [...this.handlers.keys()];
      await this.command(c, channels.map((channel) => `LISTEN ${quoteIdent(channel)}`).join('; '), true);
      if (this.client === c) for (const channel of channels) this.tell(channel, true);
    } catch (err) {
      this.logger.warn({ err, channels: [...this.handlers.keys()] }, 'could not listen; retrying');
      if (this.client === c) this.client = undefined;
      c.end().catch(() => undefined);
      this.reconnect();
    } finally {
      this.connecting = false;
    }
  }

  private reconnect() {
    if (!this.closed && !this.retry) this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
  }

  /**
   * Runs LISTEN/UNLISTEN statements on the connection after those before them. A failure is logged
   * (rethrown with `rethrow`); a lost connection's error event reconnects, which LISTENs again.
   */
  private command(client: pg.Client, sql: string, rethrow = false): Promise<boolean> {
    const run = this.commands.then(() => client.query(sql));
    this.commands = run.catch(() => undefined);
    return run.then(
      () => true,
      (err: unknown) => {
        if (rethrow) throw err;
        this.logger.warn({ err, sql }, 'could not change the channels listened to');
        return false;
      },
    );
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

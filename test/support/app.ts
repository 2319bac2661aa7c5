import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type App } from '../../bin/app';
import { loadConfig, type Config } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import type { AccessServices } from '../../subgraphs/access/services';
import { createTestDatabase } from './database';

export interface TestApp {
  app: App;
  config: Config;
  databaseUrl: string;
  urls: App['urls'];
  adminKey: string;
  /** A fresh key on a plan. */
  createKey(plan?: 'free' | 'pro' | 'enterprise', opts?: { dailyLimit?: number; role?: 'client' | 'admin' }): Promise<string>;
  stop(): Promise<void>;
}

export { TEMPLATE_ADMIN_KEY as TEST_ADMIN_KEY } from './keys';
import { TEMPLATE_ADMIN_KEY } from './keys';

/** The whole system in-process against this test file's own database, on random ports. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'matchday-test-')),
    ADMIN_API_KEY: TEMPLATE_ADMIN_KEY,
    DB_POOL_SIZE: '5',
    ...env,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test-app');
  let app: App;
  try {
    app = await startApp(config, logger, { databaseUrl: db.url, randomPorts: true });
  } catch (err) {
    await db.drop();
    throw err;
  }
  const access = app.services.access as AccessServices;
  return {
    app,
    config,
    databaseUrl: db.url,
    urls: app.urls,
    adminKey: config.ADMIN_API_KEY!,
    async createKey(plan = 'free', opts = {}) {
      const { key } = await access.apiKeys.create({ name: `test ${plan}`, plan, role: opts.role, dailyLimit: opts.dailyLimit ?? null });
      return key;
    },
    async stop() {
      await app.stop();
      await db.drop();
    },
  };
}

/** GET/POST through real HTTP; returns status, headers and the parsed body. */
export async function http(url: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as any };
}

import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../lib/config';
import { openStore, type StoreDefinition } from '../lib/database';
import { startEmbeddedPostgres } from '../lib/embedded-postgres';
import { DomainError } from '../lib/errors';
import { createLogger, type Logger } from '../lib/logger';
import { createMailer, outboxDir } from '../lib/mailer';
import type { ApplicationRow, ApplicationStatus } from '../subgraphs/access/store/application-store';
import { createAccessServices } from '../subgraphs/access/services';
import { effectiveLimit } from '../subgraphs/access/domain/plans';
import { accessStore } from '../subgraphs/access/store';
import { createFootballServices } from '../subgraphs/football/services';
import { footballStore } from '../subgraphs/football/store';
import type { RawSeasonFile } from '../subgraphs/football/domain/dataset';

const USAGE = `Usage: npm run cli -- <command>

  keys list [--all]                                   API keys (--all: with revoked ones)
  keys create --name <name> [--plan free|pro|enterprise] [--daily-limit <n>] [--email <e>] [--admin]
  keys revoke <id|prefix>
  keys plan <id|prefix> <free|pro|enterprise> [--daily-limit <n>]
  applications list [--status pending|approved|rejected]
  applications approve <id> --plan free|pro|enterprise [--daily-limit <n>]   issues the key and mails it
  applications reject <id> [--reason "<text>"]                                 mails the applicant
  applications import <file.eml> [<file.eml> ...]                             e-mails with subject "API Access Request"
  football import <file.json> --competition <code> --season <YYYY-YY>

Database: DATABASE_URL, else the embedded PostgreSQL of \`npm start\` (started for the command if not running).
Mail: SMTP_URL, else files in DATA_DIR/outbox/.`;

async function withStore<T>(config: Config, logger: Logger, def: StoreDefinition, work: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  let url = config.DATABASE_URL;
  let embedded;
  if (!url) {
    // reuses a running `npm start`'s embedded server, or starts it for this command
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port: config.EMBEDDED_PG_PORT, database: 'matchday', logger, reuseRunning: true });
    url = embedded.url;
  }
  const store = await openStore(def, { url, poolSize: 2, logger, migrate: true });
  try {
    return await work(store);
  } finally {
    await store.close();
    await embedded?.stop();
  }
}

const print = (x: unknown) => process.stdout.write(`${typeof x === 'string' ? x : JSON.stringify(x, null, 2)}\n`);

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      'daily-limit': { type: 'string' },
      email: { type: 'string' },
      admin: { type: 'boolean' },
      all: { type: 'boolean' },
      competition: { type: 'string' },
      season: { type: 'string' },
      status: { type: 'string' },
      reason: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [area, command, ...rest] = positionals;
  if (values.help || !area) return print(USAGE);
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 'cli');
  const dailyLimit = values['daily-limit'] === undefined ? undefined : Number(values['daily-limit']);

  if (area === 'keys') {
    return withStore(config, logger, accessStore, async (store) => {
      const { apiKeys } = accessServices(store, config, logger);
      switch (command) {
        case 'list': {
          const rows = await apiKeys.list({ includeRevoked: values.all });
          const usage = await apiKeys.usageToday(rows.map((r) => r.id));
          for (const r of rows) {
            print(`${r.prefix}  ${r.role.padEnd(6)} ${r.planCode.padEnd(10)} limit=${effectiveLimit(r.planCode, r.dailyLimit) ?? 'unlimited'} today=${usage.get(r.id) ?? 0}  ${r.revokedAt ? 'REVOKED ' : ''}${r.name}${r.email ? ` <${r.email}>` : ''}`);
          }
          return;
        }
        case 'create': {
          if (!values.name) throw new UsageError('--name is required');
          const { key, record } = await apiKeys.create({ name: values.name, plan: values.plan ?? 'free', role: values.admin ? 'admin' : 'client', dailyLimit, email: values.email });
          print(`Created ${record.role} key ${record.prefix} on plan ${record.planCode}. The key (shown once):\n${key}`);
          return;
        }
        case 'revoke': {
          if (!rest[0]) throw new UsageError('keys revoke <id|prefix>');
          const row = await apiKeys.revoke(rest[0]);
          print(`Revoked ${row.prefix} (${row.name}).`);
          return;
        }
        case 'plan': {
          if (!rest[0] || !rest[1]) throw new UsageError('keys plan <id|prefix> <plan> [--daily-limit <n>]');
          const row = await apiKeys.changePlan(rest[0], rest[1], dailyLimit);
          print(`${row.prefix} is now on plan ${row.planCode}${row.dailyLimit ? ` (${row.dailyLimit}/day)` : ''}.`);
          return;
        }
        default:
          throw new UsageError(`unknown command "keys ${command ?? ''}"`);
      }
    });
  }
  if (area === 'applications') {
    return withStore(config, logger, accessStore, async (store) => {
      const { applications } = accessServices(store, config, logger);
      const decidedBy = `cli (${userInfo().username})`;
      switch (command) {
        case 'list': {
          if (values.status !== undefined && !STATUSES.includes(values.status as ApplicationStatus)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
          const rows = await applications.list({ status: (values.status as ApplicationStatus | undefined) ?? null, first: 200 });
          if (!rows.length) print('No applications.');
          for (const r of rows) print(describeApplication(r));
          return;
        }
        case 'approve': {
          if (!rest[0] || !values.plan) throw new UsageError('applications approve <id> --plan free|pro|enterprise [--daily-limit <n>]');
          const row = await applications.approve(rest[0], { plan: values.plan, dailyLimit, decidedBy });
          print(`Approved ${row.id}: key ${row.keyPrefix}… on plan ${row.planCode} sent to ${row.email} (${mailDestination(config)}).`);
          return;
        }
        case 'reject': {
          if (!rest[0]) throw new UsageError('applications reject <id> [--reason "<text>"]');
          const row = await applications.reject(rest[0], { reason: values.reason, decidedBy });
          print(`Rejected ${row.id}; ${row.email} was told (${mailDestination(config)}).`);
          return;
        }
        case 'import': {
          if (!rest.length) throw new UsageError('applications import <file.eml> [<file.eml> ...]');
          let failed = 0;
          for (const file of rest) {
            try {
              const { application: a, created } = await applications.submitEmail(readFileSync(file), { kind: 'trusted' });
              print(`${file}: ${created ? 'new application' : 'already known as'} ${a.id} (${a.status}) from ${a.name} <${a.email}>`);
            } catch (err) {
              if (!(err instanceof DomainError) && (err as NodeJS.ErrnoException).code === undefined) throw err;
              failed++;
              process.stderr.write(`${file}: ${(err as Error).message}\n`);
            }
          }
          if (failed) process.exitCode = 1;
          return;
        }
      }
      throw new UsageError(`unknown command "applications ${command ?? ''}"`);
    });
  }
  if (area === 'football' && command === 'import') {
    if (!rest[0] || !values.competition || !values.season) throw new UsageError('football import <file.json> --competition <code> --season <YYYY-YY>');
    let file: RawSeasonFile;
    try {
      file = JSON.parse(readFileSync(rest[0], 'utf8'));
    } catch (e) {
      throw new UsageError(`cannot read ${rest[0]} as JSON: ${(e as Error).message}`);
    }
    return withStore(config, logger, footballStore, async (store) => {
      const report = await createFootballServices(store, logger).importSeason(values.competition!, values.season!, file);
      print(`Imported ${report.matches} matches from ${rest[0]}: ${report.inserted} new, ${report.updated} updated, ${report.unchanged} unchanged.`);
    });
  }
  throw new UsageError(`unknown command "${positionals.join(' ')}"`);
}

class UsageError extends Error {}

function accessServices(store: Awaited<ReturnType<typeof openStore>>, config: Config, logger: Logger) {
  return createAccessServices(store, { mailer: createMailer(config, logger), config, logger });
}

const STATUSES: ApplicationStatus[] = ['pending', 'approved', 'rejected'];

const mailDestination = (config: Config) => (config.SMTP_URL ? 'by SMTP' : `outbox ${outboxDir(config)}`);

function describeApplication(r: ApplicationRow): string {
  const decision =
    r.status === 'approved' ? ` plan=${r.planCode} key=${r.keyPrefix}…` : r.status === 'rejected' && r.rejectionReason ? ` reason="${r.rejectionReason}"` : '';
  const usage = r.usage.replace(/\s+/g, ' ');
  return `${r.id}  ${r.status.padEnd(8)} ${r.source.padEnd(5)} ${r.createdAt.toISOString().slice(0, 16)}  ${r.name} <${r.email}>${decision}\n    ${usage.length > 100 ? `${usage.slice(0, 99)}…` : usage}`;
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}\n`);
  else if (err instanceof DomainError || err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});

/**
 * `npm run bench:bot`: the Telegram bot's /predict, timed from the update to the bot's reply call
 * (Telegram itself excluded: a transformer answers the Bot API in-process), against its baseline in
 * the same run: the same GraphQL operations (BotResolveTeams + BotPredictPairing, same variables,
 * same key) sent straight to the gateway. Both topologies: the gateway in-process (`npm start`)
 * and over HTTP (docker compose). Requests run one at a time (latency, not throughput); blocks of
 * A and B alternate to spread the machine's noise over both.
 *
 * Options: --requests <n> per block (200), --rounds <n> (3). Needs PostgreSQL: DATABASE_URL's
 * server, else 127.0.0.1:5432 (user postgres); it creates, and drops at the end, matchday_bench_bot.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Update } from 'grammy/types';
import pg from 'pg';
import { startApp } from '../bin/app';
import { createTelegramBot } from '../bot/bot';
import { GatewayClient, httpTransport, inProcessTransport, type GraphQLTransport } from '../bot/gateway-client';
import { PREDICT_PAIRING, PredictionsClient, RESOLVE_TEAMS } from '../bot/predictions-client';
import { loadConfig } from '../subgraphs/products';
import { createLogger } from '../lib/logger';
import type { AccessServices } from '../subgraphs/predictions/access/services';
import type { PredictionServices } from '../subgraphs/predictions/predictions/services';

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '200' }, rounds: { type: 'string', default: '3' } } });
const REQUESTS = Number(args.requests);
const ROUNDS = Number(args.rounds);
const DATABASE = 'matchday_bench_bot';
const HOME = 'Man Utd';
const AWAY = 'spurs';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), mean: ms.reduce((s, x) => s + x, 0) / ms.length };
}

/** The bot as `npm start` or the bot service builds it; its reply call ends each measurement. */
function botUnderBench(transport: GraphQLTransport, logger: ReturnType<typeof createLogger>) {
  const replies: { at: number; text: string }[] = [];
  const { bot } = createTelegramBot({
    token: '1:bench',
    botInfo: {
      id: 1,
      is_bot: true,
      first_name: 'Bench',
      username: 'bench_bot',
      can_join_groups: false,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    },
    logger,
    predictions: new PredictionsClient(new GatewayClient(transport)),
    timeZone: 'UTC',
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    apiTransformers: [
      (_prev, method, payload) => {
        const text = (payload as { text?: string }).text ?? '';
        if (method === 'sendMessage') replies.push({ at: performance.now(), text });
        return Promise.resolve({ ok: true, result: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text } } as never);
      },
    ],
  });
  let updateId = 0;
  return async (): Promise<{ ms: number; text: string }> => {
    const text = `/predict ${HOME} vs ${AWAY}`;
    const update: Update = {
      update_id: ++updateId,
      message: {
        message_id: updateId,
        date: 0,
        chat: { id: 1, type: 'private', first_name: 'B' },
        from: { id: 1, is_bot: false, first_name: 'B' },
        text,
        entities: [{ type: 'bot_command', offset: 0, length: 8 }],
      },
    };
    const before = replies.length;
    const started = performance.now();
    await bot.handleUpdate(update);
    const reply = replies[before];
    if (!reply) throw new Error('the bot did not reply');
    replies.length = 0;
    return { ms: reply.at - started, text: reply.text };
  };
}

/** The same two operations the bot sends for that /predict, straight to the gateway. */
function directQueries(transport: GraphQLTransport, homeId: number, awayId: number) {
  let n = 0;
  return async (): Promise<number> => {
    const started = performance.now();
    const resolved = await transport({ query: RESOLVE_TEAMS, variables: { home: HOME, away: AWAY, withHome: true, withAway: true } }, `direct-${++n}`);
    const predicted = await transport({ query: PREDICT_PAIRING, variables: { home: String(homeId), away: String(awayId), homeId } }, `direct-${n}`);
    const ms = performance.now() - started;
    if (resolved.errors || predicted.errors) throw new Error(JSON.stringify(resolved.errors ?? predicted.errors));
    return ms;
  };
}

async function compare(name: string, bot: () => Promise<{ ms: number }>, direct: () => Promise<number>) {
  for (let i = 0; i < 50; i++) {
    await bot();
    await direct();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < REQUESTS; i++) a.push((await bot()).ms);
    for (let i = 0; i < REQUESTS; i++) b.push(await direct());
  }
  const sa = summary(a);
  const sb = summary(b);
  const row = (label: string, s: ReturnType<typeof summary>) =>
    `  ${label.padEnd(58)} p50 ${s.p50.toFixed(2).padStart(6)} ms   p99 ${s.p99.toFixed(2).padStart(6)} ms   mean ${s.mean.toFixed(2).padStart(6)} ms`;
  console.log(`\n${name} (${a.length} requests each)`);
  console.log(row('A: bot, /predict update → reply call', sa));
  console.log(row('B: the same 2 GraphQL operations straight to the gateway', sb));
  const signed = (ms: number) => `${ms >= 0 ? '+' : '-'}${Math.abs(ms).toFixed(2)} ms`;
  console.log(`  the bot's own share: p50 ${signed(sa.p50 - sb.p50)}, p99 ${signed(sa.p99 - sb.p99)} (A/B p50 = ${(sa.p50 / sb.p50).toFixed(2)})`);
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = (sql: string) =>
    (async () => {
      const c = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    })();
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DATABASE}`);
  const databaseUrl = server.replace(/\/[^/]*$/, `/${DATABASE}`);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    LOG_LEVEL: 'warn',
    BACKTEST_SEASONS: '1',
  });
  const logger = createLogger('warn', 'bench-bot');
  const started = Date.now();
  const app = await startApp(config, logger, { databaseUrl, randomPorts: true });
  try {
    const predictions = app.services.predictions as PredictionServices;
    while (!(await predictions.active.get())) await new Promise((r) => setTimeout(r, 500));
    await predictions.upcoming.idle();
    console.log(
      `Bot benchmark: /predict ${HOME} vs ${AWAY}; Node ${process.version}; system up with model version 1 in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const { key } = await (app.services.access as AccessServices).apiKeys.create({ name: 'bench bot', plan: 'enterprise' });

    const inProcess = inProcessTransport(app.gateway, key);
    const ids = await inProcess({ query: RESOLVE_TEAMS, variables: { home: HOME, away: AWAY, withHome: true, withAway: true } }, 'ids');
    const teams = ids.data as { home: { team: { id: number } }; away: { team: { id: number } } };
    const [homeId, awayId] = [teams.home.team.id, teams.away.team.id];

    const inProcessBot = botUnderBench(inProcess, logger);
    const first = await inProcessBot();
    if (!first.text.includes('Prediction:')) throw new Error(`unexpected reply: ${first.text}`);
    await compare('In-process gateway (npm start)', inProcessBot, directQueries(inProcess, homeId, awayId));

    const overHttp = httpTransport(`${app.urls.gateway}/graphql`, key);
    await compare('Gateway over HTTP (docker compose: the bot service)', botUnderBench(overHttp, logger), directQueries(overHttp, homeId, awayId));
  } finally {
    await app.stop();
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

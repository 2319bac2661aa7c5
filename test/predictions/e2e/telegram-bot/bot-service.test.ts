/**
 * The bot service of docker compose (`node dist/bot/main.js`) against telegram-test-api: it
 * long-polls the emulator and reaches the real gateway and subgraphs over HTTP with its own key;
 * a user holds the conversations of the issue.
 */
import type TelegramServer from 'telegram-test-api';
import { freePorts } from '../../../../lib/server';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { assertBuilt } from '../../../support/platform/child-app';
import { converse, press, startEmulator, startEntry, type Child } from './emulator';

const TOKEN = '424242:e2e-token_for-the-bot-service';

let t: TestApp;
let server: TelegramServer;
let bot: Child;
let botPort: number;

beforeAll(async () => {
  assertBuilt('dist/bot/main.js');
  t = await startTestApp();
  const [emulatorPort, port] = await freePorts(2);
  botPort = port;
  server = await startEmulator(emulatorPort);
  bot = await startEntry(
    'dist/bot/main.js',
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      BOT_PORT: String(botPort),
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: server.config.apiURL,
      GATEWAY_URL: `${t.urls.gateway}/graphql`,
      BOT_API_KEY: await t.createKey('enterprise'),
      // one test user sends every command of this file within seconds
      BOT_RATE_LIMIT: '100',
    },
    '"msg":"Telegram bot ready"',
  );
}, 120_000);

afterAll(async () => {
  if (bot?.process.exitCode === null) bot.process.kill('SIGKILL');
  await server?.stop();
  await t?.stop();
});

const sayToBot = (text: string) => converse(server, TOKEN, text);

it('says on /healthz that it runs by long polling', async () => {
  const res = await fetch(`http://127.0.0.1:${botPort}/healthz`);
  expect(await res.json()).toEqual({ status: 'ok', bot: 'long polling' });
});

it('/help lists the commands', async () => {
  const [help] = await sayToBot('/help');
  for (const command of ['/predict', '/nextmatch', '/help', '/start']) expect(help.text).toContain(command);
});

it('/predict with aliases answers with the prediction of the gateway', async () => {
  const [answer] = await sayToBot('/predict Man Utd vs spurs');
  expect(answer.text.split('\n')[0]).toBe('<b>Manchester United FC</b> vs <b>Tottenham Hotspur FC</b>');
  expect(answer.text).toMatch(/Prediction: <b>(Home Win|Draw|Away Win)<\/b>/);
  expect(answer.text).toMatch(/Home win \d+% · Draw \d+% · Away win \d+%/);
});

it('/predict with an unknown team says so', async () => {
  const [answer] = await sayToBot('/predict Hogwarts vs Arsenal');
  expect(answer.text).toContain("I don't know a team called “Hogwarts” (home).");
});

it('/predict with an ambiguous team offers buttons, and a press edits the question into the prediction', async () => {
  const [question] = await sayToBot('/predict Manchester vs Arsenal');
  const city = question.buttons.flat().find((b) => b.text === 'Manchester City FC')!;
  const edited = await press(server, TOKEN, question, city.callback_data);
  expect(edited.split('\n')[0]).toBe('<b>Manchester City FC</b> vs <b>Arsenal FC</b>');
});

it('/nextmatch answers with the next scheduled match and its prediction', async () => {
  const [answer] = await sayToBot('/nextmatch');
  expect(answer.text).toMatch(/^Next match in .+:\n<b>.+<\/b> vs <b>.+<\/b>\nKick-off /);
  expect(answer.text).toContain('Prediction: <b>');
  const [premier] = await sayToBot('/nextmatch Premier League');
  expect(premier.text).toMatch(/^Next match in English Premier League:/);
});

it('stops on SIGTERM with exit code 0', async () => {
  bot.process.kill('SIGTERM');
  expect(await bot.exited).toBe(0);
});

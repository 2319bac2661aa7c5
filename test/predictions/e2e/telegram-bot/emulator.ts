import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import TelegramServer from 'telegram-test-api';
import { projectRoot } from '../../../../lib/paths';
import { until } from '../../../support/predictions/telegram';

/**
 * telegram-test-api, a local Telegram Bot API emulator on 127.0.0.1, and a user talking to a bot
 * through it. It answers getUpdates at once (no long polling): run it only while a test needs it.
 */
export async function startEmulator(port: number): Promise<TelegramServer> {
  const server = new TelegramServer({ port, host: '127.0.0.1' });
  await server.start();
  return server;
}

export interface BotMessage {
  text: string;
  messageId: number;
  buttons: { text: string; callback_data: string }[][];
}

/** A user of chat 1 sends the command `text`; resolves with the bot's answers. */
export async function converse(server: TelegramServer, token: string, text: string): Promise<BotMessage[]> {
  const client = server.getClient(token, { timeout: 10_000 });
  await client.sendCommand(client.makeCommand(text));
  const { result } = (await client.getUpdates()) as { result: { messageId: number; message: { text: string; reply_markup?: { inline_keyboard: any } } }[] };
  return result.map((u) => ({ text: u.message.text, messageId: u.messageId, buttons: u.message.reply_markup?.inline_keyboard ?? [] }));
}

/** The user presses a button of the bot's message; resolves with that message as the bot then edited it. */
export async function press(server: TelegramServer, token: string, message: BotMessage, data: string): Promise<string> {
  const client = server.getClient(token, { timeout: 10_000 });
  const edited = server.waitBotEdits();
  await client.sendCallback(client.makeCallbackQuery(data, { message: { message_id: message.messageId } }));
  await edited;
  const history = (await client.getUpdatesHistory()) as { messageId: number; message: { text?: string } }[];
  return history.find((u) => u.messageId === message.messageId)!.message.text!;
}

export interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** A compiled entry point (dist/) in its own process, once its output shows `ready`. */
export async function startEntry(entry: string, env: NodeJS.ProcessEnv, ready: string): Promise<Child> {
  const child = spawn(process.execPath, [join(projectRoot(), entry)], {
    // the test databases' sealed secrets open with the test master key
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MASTER_KEY: TEST_MASTER_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => output.includes(ready) || child.exitCode !== null, `${entry} to be ready`, 60_000);
  if (child.exitCode !== null) throw new Error(`${entry} exited:\n${output}`);
  return { process: child, output: () => output, exited };
}

import type { Config } from './config';
import type { Logger } from './logger';

/** A command-line mistake: the runner prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

export type CliOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface CliInput {
  /** Positional arguments after the command's words. */
  args: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
}

/**
 * One `npm run cli -- <words> …` command, declared in its product's folder and attached to the
 * subgraph whose services it uses (SubgraphDefinition.commands): the CLI knows only that list.
 */
export interface CliCommand<S = unknown> {
  /** The words that select it, e.g. ['keys', 'list'] or ['finance:check']. */
  words: string[];
  /** Its arguments and a short description, for the usage text. */
  usage: string;
  options?: CliOptions;
  /** Exit status: the returned number, else 0 (a thrown DomainError: its message and 1). */
  run(ctx: CliContext<S>, input: CliInput): Promise<number | void>;
}

export interface CliContext<S> {
  config: Config;
  logger: Logger;
  /** The owning subgraph's services on the database (migrated), opened on first use and closed after the command. */
  services(): Promise<S>;
  print(text: unknown): void;
}

export const printOut = (x: unknown) => process.stdout.write(`${typeof x === 'string' ? x : JSON.stringify(x, null, 2)}\n`);

/** A string option that must be a whole number, or undefined. */
export function intOption(values: CliInput['values'], name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || !Number.isSafeInteger(n)) throw new UsageError(`--${name} must be a whole number`);
  return n;
}

import { ConfigError, type Config } from './config';
import { isDatabaseUnavailable } from './faults';

/**
 * Runs a process entry point (a container's command). A configuration error prints just its
 * message; any other start-up failure its stack. Both exit 1, so the orchestrator restarts or reports.
 */
export function runEntry(main: () => Promise<void>): Promise<void> {
  survivesDatabaseOutages();
  return main().catch((err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`Start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : describe(err)}\n`);
    process.exit(1);
  });
}

type WithSettings<K extends keyof Config> = Config & { [P in K]-?: NonNullable<Config[P]> };

/** The settings that are optional for `npm start` but that this entry point cannot run without. */
export function requireSettings<K extends keyof Config>(config: Config, names: readonly K[], entry: string): WithSettings<K> {
  const missing = names.filter((name) => config[name] === undefined);
  if (missing.length) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: required by ${entry}`).join('\n')}`);
  }
  return config as WithSettings<K>;
}

/** Some libraries reject with plain objects or strings; show what there is. */
function describe(err: unknown): string {
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/**
 * A database outage never ends the process. Our own code awaits every database call (and background
 * work waits the outage out, lib/jobs.ts); this is the net under libraries that leave a promise
 * unawaited (pg-boss 10's schedule worker completes its jobs that way): a rejection that only says
 * "the database is unreachable" is logged. Any other unhandled rejection still ends the process, as
 * Node's default does: its state is unknown.
 */
function survivesDatabaseOutages(): void {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      const message = reason instanceof Error ? reason.message : describe(reason);
      process.stderr.write(
        `${JSON.stringify({ level: 40, time: Date.now(), msg: 'unawaited database call failed (database unreachable); continuing', err: message })}\n`,
      );
      return;
    }
    process.stderr.write(`Unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : describe(reason)}\n`);
    process.exit(1);
  });
}

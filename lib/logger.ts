import pino, { type Logger } from 'pino';

export type { Logger };

export const REDACTED = '[redacted]';

/**
 * Names whose values are credentials, wherever they sit in a log line (a request's headers, a
 * GraphQL operation's variables, an error's request options): header names that carry a credential
 * or a signed principal, and fields named like a key, password, secret or token.
 */
const SECRET_NAME =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|x-license-key|x-verified-principal|x-inbound-mail-secret|credential|credentials|key|raw-?key|api[-_]?key|private[-_]?key|password|passphrase|.*secret|.*token)$/i;

const MAX_DEPTH = 8;

/** A copy of `value` with every credential-named field replaced; objects that are not plain data (errors, buffers) stay as they are. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_NAME.test(k) && v !== undefined && v !== null ? REDACTED : redactSecrets(v, depth + 1);
  return out;
}

/** Structured JSON logs; credentials never reach them (any field named like one, at any depth). */
export function createLogger(level: string, name = 'app', destination?: pino.DestinationStream): Logger {
  const options = { name, level, base: undefined, formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown> } };
  return destination ? pino(options, destination) : pino(options);
}

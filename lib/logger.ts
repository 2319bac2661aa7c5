import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; credentials never reach them. */
export function createLogger(level: string, name = 'app'): Logger {
  return pino({
    name,
    level,
    base: undefined,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-license-key"]',
        'headers.authorization',
        'headers.cookie',
        'headers["x-license-key"]',
        '*.apiKey',
        '*.password',
        '*.token',
      ],
      censor: '[redacted]',
    },
  });
}

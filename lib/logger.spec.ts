import { Writable } from 'node:stream';
import { REDACTED, createLogger } from './logger';

/** What reaches the log: every line, parsed. */
function capture() {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: createLogger('info', 'spec', stream), lines };
}

it('redacts the headers that carry a signed principal, the inbound-mail secret and every credential header', () => {
  const { logger, lines } = capture();
  const headers = {
    'x-verified-principal': 'eyJhbGciOiJFZERTQSJ9.payload.signature',
    'x-inbound-mail-secret': 'inbound-secret-0123456789',
    authorization: 'Bearer mpk_secret',
    cookie: 'session=abc',
    'x-license-key': 'LIC-123',
    'content-type': 'application/json',
  };
  logger.info({ req: { headers }, headers }, 'request');
  for (const where of [lines[0].req.headers, lines[0].headers]) {
    expect(where).toEqual({
      'x-verified-principal': REDACTED,
      'x-inbound-mail-secret': REDACTED,
      authorization: REDACTED,
      cookie: REDACTED,
      'x-license-key': REDACTED,
      'content-type': 'application/json',
    });
  }
});

it('redacts secrets nested at any depth, in objects and arrays, and leaves other fields alone', () => {
  const { logger, lines } = capture();
  logger.warn(
    {
      operation: { variables: { input: { name: 'Acme', password: 'hunter2', deep: { deeper: { clientSecret: 's3cr3t', refreshToken: 'r' } } } } },
      attempts: [{ apiKey: 'mpk_x', keyPrefix: 'mpk_AbCd1234' }],
      applicationId: '00000000-0000-0000-0000-000000000000',
    },
    'nested',
  );
  const [line] = lines;
  expect(line.operation.variables.input).toEqual({ name: 'Acme', password: REDACTED, deep: { deeper: { clientSecret: REDACTED, refreshToken: REDACTED } } });
  expect(line.attempts).toEqual([{ apiKey: REDACTED, keyPrefix: 'mpk_AbCd1234' }]);
  expect(line.applicationId).toBe('00000000-0000-0000-0000-000000000000');
  expect(JSON.stringify(lines)).not.toMatch(/hunter2|s3cr3t|mpk_x"/);
});

it('still serialises errors', () => {
  const { logger, lines } = capture();
  logger.error({ err: new Error('boom') }, 'failed');
  expect(lines[0].err).toMatchObject({ type: 'Error', message: 'boom', stack: expect.stringContaining('boom') });
});

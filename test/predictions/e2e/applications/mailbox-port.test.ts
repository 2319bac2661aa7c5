import { createServer, type Server } from 'node:net';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http } from '../../../support/platform/http';

/**
 * An optional mailbox whose port was taken ended the whole start (exit 1). The default
 * port (APPLICATION_SMTP_PORT unset: 2525) is optional: when it is taken the system starts without the
 * mailbox, says so, and shows `smtpPort: null`; a port asked for explicitly and taken still ends the start.
 */

let blocker: Server | undefined;
let t: TestApp<'predictions'> | undefined;

/** Holds `port` on 127.0.0.1, unless something else already does (then it is taken all the same). */
async function occupy(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

beforeAll(async () => {
  blocker = await occupy(2525);
}, 30_000);
afterAll(async () => {
  await t?.stop();
  await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
});

it('the default port taken: the system starts without the mailbox and shows smtpPort: null', async () => {
  // APPLICATION_SMTP_PORT unset (the test apps set 0 otherwise)
  t = await startTestApp<'predictions'>({ APPLICATION_SMTP_PORT: undefined } as unknown as Record<string, string>, { products: ['predictions'] });
  expect(t.app.services.access.mailbox.info()).toMatchObject({ port: null, offBecause: 'port 2525 is taken' });
  const gqlAnswer = await gql(t as unknown as TestApp, '{ applicationMailbox { address smtpPort } }');
  expect(gqlAnswer.body.data.applicationMailbox).toEqual({ address: 'api-access@localhost', smtpPort: null });
  const index = await http(`${t.urls.predictions}/api/`, { key: await t.createKey('free') });
  expect(index.body.apply).toMatchObject({ email: 'api-access@localhost', smtp: null });
  // applying by the form still works
  expect((await http(`${t.urls.predictions}/apply/`)).status).toBe(200);
}, 120_000);

it('a port asked for explicitly and taken ends the start with the reason', async () => {
  await expect(startTestApp<'predictions'>({ APPLICATION_SMTP_PORT: '2525' }, { products: ['predictions'] })).rejects.toThrow(
    /the application mailbox cannot listen on 127\.0\.0\.1:2525 \(.*EADDRINUSE/,
  );
}, 120_000);

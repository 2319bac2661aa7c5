import { rfc822 } from '../../../../test/support/platform/mail';
import { MAX_MIME_PARTS } from './application-mail';
import { createMailReader, MAIL_BUDGET, type MailReader } from './mail-reader';

/**
 * The mail worker (piscina, from dist/: `npx tsc -p tsconfig.build.json` first): a message is read on
 * another thread, within its time budget (past it, the thread is ended and the message is over budget),
 * its part budget (counted before parsing) and a bounded queue.
 */

const application = rfc822({
  from: 'Jane Doe <jane@club.example>',
  subject: 'API Access Request',
  body: 'Name: Jane Doe\nUsage: Match previews for our club.',
});
const parts = (n: number) =>
  rfc822({ from: 'a@b.example', subject: 'hi', body: '--bb\n\n\n'.repeat(n) + '--bb--', headers: { 'Content-Type': 'multipart/mixed; boundary="bb"' } });

const readers: MailReader[] = [];
const reader = (budget = MAIL_BUDGET) => {
  const r = createMailReader(budget);
  readers.push(r);
  return r;
};
afterAll(() => Promise.all(readers.map((r) => r.close())));

it('reads an application in the worker', async () => {
  const read = await reader().read(Buffer.from(application));
  expect(read).toMatchObject({
    subject: 'API Access Request',
    application: { name: 'Jane Doe', email: 'jane@club.example', usage: 'Match previews for our club.' },
  });
});

it(`does not parse a message of more than ${MAX_MIME_PARTS} parts, and reads one of ${MAX_MIME_PARTS}`, async () => {
  const r = reader();
  expect(await r.read(Buffer.from(parts(MAX_MIME_PARTS + 1)))).toMatchObject({
    overBudget: true,
    problem: { message: expect.stringMatching(/too many MIME parts/) },
  });
  expect(await r.read(Buffer.from(parts(MAX_MIME_PARTS - 1)))).toEqual({
    subject: 'hi',
    problem: expect.objectContaining({ message: expect.stringMatching(/subject must be/) }),
  });
});

it('ends a read that runs over its time budget, and reads the next message on a new thread', async () => {
  const r = reader({ ...MAIL_BUDGET, timeMs: 1 });
  expect(await r.read(Buffer.from(parts(MAX_MIME_PARTS)))).toMatchObject({ overBudget: true, problem: { message: expect.stringMatching(/longer than 1 ms/) } });
  const fresh = reader();
  expect((await fresh.read(Buffer.from(application))).application).toBeDefined();
});

it('refuses at once what the queue cannot hold (busy: 503, SMTP 451)', async () => {
  const r = reader({ ...MAIL_BUDGET, queue: 1, threads: 1 });
  const results = await Promise.allSettled(Array.from({ length: 4 }, () => r.read(Buffer.from(parts(MAX_MIME_PARTS)))));
  expect(results.filter((x) => x.status === 'rejected').map((x) => (x as PromiseRejectedResult).reason)).toContainEqual(
    expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', status: 503 }),
  );
  // one reading, one waiting; the other two refused
  expect(results.map((x) => x.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { MAX_MIME_PARTS } from '../../../../subgraphs/predictions/access/domain/application-mail';
import { MAILBOX_LIMITS } from '../../../../subgraphs/predictions/access/mailbox';
import { projectRoot } from '../../../../lib/paths';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql } from '../../../support/platform/http';
import { expectResponsive, idleMs, probeDuring, probeMs, RESPONSIVE_MARGIN_MS } from '../../../support/platform/responsiveness';

/**
 * One anonymous e-mail froze every product. An 800 kB message of 80,000 empty MIME parts
 * took 5.3 s to parse on the event loop, and /healthz on every surface waited as long (four in
 * parallel: ~19 s). Now each message is read in the mail worker within a time and part budget, and
 * the mailbox limits messages per client address and sender and the connections open at once.
 */

const ADDRESS = 'apply@predictions.example';
const PER_MINUTE = 12;

let t: TestApp<'predictions' | 'registry'>;
let port: number;
beforeAll(async () => {
  t = await startTestApp(
    { APPLICATION_MAIL_ADDRESS: ADDRESS, APPLICATION_SMTP_MESSAGES_PER_MINUTE: String(PER_MINUTE) },
    { products: ['predictions', 'registry'] },
  );
  port = t.app.services.access.mailbox.info().port!;
  // warm up the probed path (first requests compile code): what is measured is the mail, not a cold start
  for (let i = 0; i < 10; i++) await probeMs(healthz());
}, 120_000);
afterAll(() => t?.stop());

/** `parts` empty MIME parts: 10 bytes each (80,000 → 800 kB). */
const mimeBomb = (parts: number, subject: string) =>
  [
    'From: someone@sender.example',
    `To: ${ADDRESS}`,
    `Subject: ${subject}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@sender.example>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="bb"',
    '',
    '--bb\r\n\r\n\r\n'.repeat(parts) + '--bb--',
    '',
  ].join('\r\n');

const sendRaw = (raw: string, from = 'someone@sender.example') =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, socketTimeout: 60_000 })
    .sendMail({ envelope: { from, to: [ADDRESS] }, raw });

/* A sender in a child process: each raw message on its own connection, all at once; prints the answers as JSON. */
const SENDER = `
const nodemailer = require('nodemailer');
const { port, to, messages } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
Promise.all(messages.map((raw) =>
  nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, socketTimeout: 60000 })
    .sendMail({ envelope: { from: 'someone@sender.example', to: [to] }, raw })
    .then((info) => ({ accepted: info.accepted }), (err) => ({ accepted: [], refused: { responseCode: err.responseCode, response: err.response } })),
)).then((answers) => process.stdout.write(JSON.stringify(answers)));
`;

async function sendFromChild(messages: string[]): Promise<{ accepted: string[]; refused?: { responseCode: number; response: string } }[]> {
  const child = spawn(process.execPath, ['-e', SENDER], { cwd: projectRoot(), stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stdin.end(JSON.stringify({ port, to: ADDRESS, messages }));
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(0);
  return JSON.parse(out) as { accepted: string[]; refused?: { responseCode: number; response: string } }[];
}

/** The registry surface's /healthz: another product than the mailbox's. */
const healthz = () => `${t.urls.registry}/healthz`;

const mailbox = async () =>
  (await gql(t as unknown as TestApp, '{ applicationMailbox { received applications ignored refused } }')).body.data.applicationMailbox;

it(`four 800 kB messages of 80,000 empty MIME parts in parallel: each refused with the reason, and /healthz elsewhere within ${RESPONSIVE_MARGIN_MS} ms of its idle time`, async () => {
  const bomb = mimeBomb(80_000, 'hello');
  expect(bomb.length).toBeGreaterThan(790_000);
  expect(bomb.length).toBeLessThan(1024 * 1024);
  // the idle time, in this run on this machine
  const idle = await idleMs(healthz());

  // sent by another process, as a stranger's server would: the sending (80,000 lines to dot-stuff) is not this event loop's work
  const { result: answers, ...health } = await probeDuring(
    healthz(),
    () => sendFromChild([bomb, bomb, mimeBomb(80_000, 'API Access Request'), mimeBomb(80_000, 'API Access Request')]),
    5,
  );

  // read no further than the parts a message may have, whatever its subject: refused with the reason (552)
  for (const a of answers) {
    expect(a.refused).toMatchObject({ responseCode: 552, response: expect.stringContaining(`more than ${MAX_MIME_PARTS}`) });
  }
  expect(await mailbox()).toMatchObject({ received: 4, applications: 0, ignored: 0, refused: 4 });
  expectResponsive(health, idle);
}, 90_000);

it('a well-formed application still arrives after the bombs', async () => {
  const raw = [
    'From: Jane Doe <jane@club.example>',
    `To: ${ADDRESS}`,
    'Subject: API Access Request',
    `Message-ID: <${Math.random().toString(36).slice(2)}@club.example>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Name: Jane Doe\r\nUsage: Match previews on our supporters’ site.',
    '',
  ].join('\r\n');
  const info = await sendRaw(raw, 'jane@club.example');
  expect(info.accepted).toEqual([ADDRESS]);
  expect(await mailbox()).toMatchObject({ received: 5, applications: 1 });
});

it(`limits messages per client address (${PER_MINUTE} a minute here): past it, 450 before the message is read`, async () => {
  const before = (await mailbox()).received;
  const answers: (number | 'ok')[] = [];
  for (let i = 0; i < 10; i++) {
    answers.push(
      await sendRaw(mimeBomb(1, 'hello'), `sender${i}@elsewhere.example`).then(
        () => 'ok' as const,
        (err: { responseCode: number }) => err.responseCode,
      ),
    );
  }
  // five messages were taken above; the 13th from this address is refused
  expect(answers.filter((a) => a === 'ok')).toHaveLength(PER_MINUTE - 5);
  expect(answers.slice(PER_MINUTE - 5)).toEqual(Array(10 - (PER_MINUTE - 5)).fill(450));
  expect((await mailbox()).received).toBe(before + PER_MINUTE - 5);
});

it(`holds at most ${MAILBOX_LIMITS.connections} connections at once: the next is answered 421`, async () => {
  const greet = () =>
    new Promise<{ line: string; close: () => void }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', reject);
      socket.once('data', (d) => resolve({ line: String(d), close: () => socket.destroy() }));
    });
  const open = await Promise.all(Array.from({ length: MAILBOX_LIMITS.connections }, greet));
  try {
    expect(open.every((c) => c.line.startsWith('220'))).toBe(true);
    const extra = await greet();
    extra.close();
    expect(extra.line).toMatch(/^421/);
  } finally {
    open.forEach((c) => c.close());
  }
});

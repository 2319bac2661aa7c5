import nodemailer from 'nodemailer';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http } from '../../../support/platform/http';

/**
 * Applying by e-mail out of the box: the system's own SMTP receiver takes mail for its address
 * (published on /api/ and the form). Real SMTP, sent with nodemailer: "API Access Request" becomes
 * an application, like the webhook's; other mail is counted and dropped; an application missing
 * its details is refused with the reason; mail for another address is refused.
 */

const ADDRESS = 'apply@predictions.example';

let t: TestApp;
let port: number;
beforeAll(async () => {
  // no INBOUND_MAIL_SECRET: the webhook is off, the mailbox works all the same
  t = await startTestApp({ APPLICATION_MAIL_ADDRESS: ADDRESS });
  port = t.app.services.access.mailbox.info().port!;
}, 90_000);
afterAll(() => t?.stop());

// over SMTP to the mailbox itself, as a mail server on the way would deliver it
const mailTheMailbox = (mail: { from: string; to?: string; subject: string; text: string }) =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    .sendMail({ to: ADDRESS, messageId: `<${Math.random().toString(36).slice(2)}@sender.example>`, ...mail });

const mailbox = async () =>
  (await gql(t, '{ applicationMailbox { address smtpHost smtpPort received applications ignored refused } }')).body.data.applicationMailbox;
const applications = async () => (await gql(t, '{ applications(first: 200) { name email usage source status } }')).body.data.applications;

it('publishes its address on /api/ and on the application form', async () => {
  const key = await t.createKey('free');
  const info = await http(`${t.urls.predictions}/api/`, { key });
  expect(info.body.apply).toEqual({ form: '/apply/', email: ADDRESS, subject: 'API Access Request', smtp: `127.0.0.1:${port}` });
  const form = await http(`${t.urls.predictions}/apply/`);
  expect(form.body).toContain(`<a href="mailto:${ADDRESS}?subject=API%20Access%20Request">${ADDRESS}</a>`);
});

it('an e-mail with the subject "API Access Request" becomes an application', async () => {
  const accepted = await mailTheMailbox({
    from: 'Jane Doe <jane@club.example>',
    subject: 'API Access Request',
    text: 'Hello,\n\nName: Jane Doe, Club Analytics\nE-mail: jane@club.example\nUsage: Match previews on our supporters’ site.\n\nThanks,\nJane',
  });
  expect(accepted.accepted).toEqual([ADDRESS]);
  expect(await applications()).toContainEqual({
    name: 'Jane Doe, Club Analytics',
    email: 'jane@club.example',
    usage: 'Match previews on our supporters’ site.',
    source: 'email',
    status: 'unconfirmed',
  });
  expect(await mailbox()).toMatchObject({ address: ADDRESS, smtpHost: '127.0.0.1', smtpPort: port, received: 1, applications: 1, ignored: 0 });
});

it('other mail is accepted, counted and dropped', async () => {
  const before = (await applications()).length;
  await mailTheMailbox({ from: 'news@shop.example', subject: 'Black Friday: 50% off', text: 'Buy now.' });
  await mailTheMailbox({ from: 'bob@club.example', subject: 'Re: API Access Request', text: 'Name: Bob\nUsage: a reply' });
  expect((await applications()).length).toBe(before);
  expect(await mailbox()).toMatchObject({ received: 3, applications: 1, ignored: 2 });
});

it('an application without its details is refused with the reason, which goes back to the sender', async () => {
  await expect(mailTheMailbox({ from: 'anon@club.example', subject: 'API Access Request', text: '' })).rejects.toMatchObject({
    responseCode: 550,
    response: expect.stringMatching(/missing details/),
  });
  expect(await mailbox()).toMatchObject({ refused: 1 });
});

it('takes no mail for another address', async () => {
  await expect(
    mailTheMailbox({ from: 'jane@club.example', to: 'someone@elsewhere.example', subject: 'API Access Request', text: 'Usage: x' }),
  ).rejects.toMatchObject({
    responseCode: 550,
  });
});

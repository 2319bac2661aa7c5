import { type TestApp } from '../../../support/platform/app';
import { gql, http } from '../../../support/platform/http';
import { trainingGate, type TrainingGate } from '../../../support/predictions/training-gate';
import { outbox, readMail, rfc822 } from '../../../support/platform/mail';
import type { CaseContext, Recipe, SurfaceFixture } from './replay';

/** The prediction API's part of the conformance replay: its credentials and the cases that need a state. */

const SECRET = 'conformance-inbound-secret-0123456789';
/** Per-address allowances small enough for the 429 cases; every other case comes from an address of its own. */
const APPLICATIONS_PER_HOUR = 3;
const INBOUND_MAILS_PER_HOUR = 3;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let serial = 0;
/** A new application each time, from an address of its own (the allowances are per client address). */
const application = () => {
  serial++;
  return { name: `Conformance Tester ${serial}`, usage: `Replaying every documented operation, run ${serial}.`, email: `replay-${serial}@conformance.example` };
};
/** The client address a request names (TRUST_PROXY trusts the loopback proxies in between). */
const from = () => ({ 'x-forwarded-for': `198.51.100.${(serial % 250) + 1}` });
const form = (fields: Record<string, string>) => ({ 'content-type': 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() });
const LINK = /\/apply\/confirm\/\?token=([A-Za-z0-9_-]{43})/;
const EXHAUSTED_ADDRESS = '203.0.113.99';

/** Uses up an address's allowance of applications (directly, not through the proxy). */
async function exhaustApplications(t: TestApp) {
  for (let i = 0; i < APPLICATIONS_PER_HOUR; i++) {
    const res = await http(`${t.urls.predictions}/api/applications/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': EXHAUSTED_ADDRESS },
      body: JSON.stringify(application()),
    });
    expect([202, 429]).toContain(res.status);
  }
}

/** An application submitted now, and the token of the confirmation link mailed for it. */
async function applicationToken(ctx: CaseContext): Promise<string> {
  const a = application();
  const res = await http(`${ctx.t.urls.predictions}/api/applications/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...from() },
    body: JSON.stringify(a),
  });
  expect(res.status).toBe(202);
  const mails = await Promise.all((await (ctx.state.outbox as ReturnType<typeof outbox>).fresh()).map((m) => readMail(m.raw)));
  const mine = mails.filter((m) => m.to === a.email);
  const token = LINK.exec(mine[mine.length - 1]?.text ?? '')?.[1];
  expect(token).toBeDefined();
  return token!;
}

const gateOf = (ctx: CaseContext) => ctx.state.gate as TrainingGate;

/** Lets a retrain run that a case started end (as failed: nothing is trained), and waits for it. */
async function endRun(t: TestApp, gate: TrainingGate, jobId: string) {
  gate.fail(jobId, 'ended by the conformance test');
  for (;;) {
    const res = await http(`${t.urls.predictions}/api/retrain/${jobId}/`, { key: t.adminKey });
    if (res.body.status === 'failed' || res.body.status === 'succeeded') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const retrainRequest = (ctx: CaseContext) => ({ method: 'POST', path: '/api/retrain/', headers: { ...ctx.credentials.admin } });

const recipes: Record<string, Recipe> = {
  // the pairing the success and every derived status start from
  'GET /api/predict/ 200': {
    request: (ctx) => ({ method: 'GET', path: '/api/predict/?home=Arsenal&away=Chelsea', headers: { ...ctx.routeCredentials } }),
  },
  'POST /apply/ 200': {
    request: () => {
      const { body, ...headers } = form(application());
      return { method: 'POST', path: '/apply/', headers: { ...headers, ...from() }, body };
    },
  },
  'POST /apply/ 429': {
    before: (ctx) => exhaustApplications(ctx.t),
    request: () => {
      const { body, ...headers } = form(application());
      return { method: 'POST', path: '/apply/', headers: { ...headers, 'x-forwarded-for': EXHAUSTED_ADDRESS }, body };
    },
  },
  'POST /api/applications/ 202': {
    request: () => ({
      method: 'POST',
      path: '/api/applications/',
      headers: { 'content-type': 'application/json', ...from() },
      body: JSON.stringify(application()),
    }),
  },
  'POST /api/applications/ 429': {
    before: (ctx) => exhaustApplications(ctx.t),
    request: () => ({
      method: 'POST',
      path: '/api/applications/',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': EXHAUSTED_ADDRESS },
      body: JSON.stringify(application()),
    }),
  },
  'GET /apply/confirm/ 200': {
    async request(ctx) {
      return { method: 'GET', path: `/apply/confirm/?token=${await applicationToken(ctx)}`, headers: {} };
    },
  },
  'GET /apply/confirm/ 400': {
    request: () => ({ method: 'GET', path: `/apply/confirm/?token=${'x'.repeat(201)}`, headers: {} }),
  },
  'GET /apply/confirm/ 404': {
    request: () => ({ method: 'GET', path: `/apply/confirm/?token=${'A'.repeat(43)}`, headers: {} }),
  },
  'POST /apply/confirm/ 200': {
    async request(ctx) {
      const { body, ...headers } = form({ token: await applicationToken(ctx) });
      return { method: 'POST', path: '/apply/confirm/', headers, body };
    },
  },
  'POST /apply/confirm/ 404': {
    request: () => {
      const { body, ...headers } = form({ token: 'A'.repeat(43) });
      return { method: 'POST', path: '/apply/confirm/', headers, body };
    },
  },
  'POST /apply/confirm/ 400': {
    request: () => {
      const { body, ...headers } = form({ token: 'x'.repeat(201) });
      return { method: 'POST', path: '/apply/confirm/', headers, body };
    },
  },
  'POST /api/applications/inbound-email/ 202': {
    request: () => {
      const a = application();
      return {
        method: 'POST',
        path: '/api/applications/inbound-email/',
        headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': SECRET, ...from() },
        body: rfc822({
          from: `"${a.name}" <${a.email}>`,
          subject: 'API Access Request',
          body: `Usage: ${a.usage}`,
          messageId: `<replay-${serial}@conformance.example>`,
        }),
      };
    },
  },
  'POST /api/applications/inbound-email/ 400': {
    request: () => ({
      method: 'POST',
      path: '/api/applications/inbound-email/',
      headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': SECRET, ...(application(), from()) },
      body: 'no headers, so not a message',
    }),
  },
  'POST /api/applications/inbound-email/ 403': {
    request: () => ({
      method: 'POST',
      path: '/api/applications/inbound-email/',
      headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': 'not-the-secret-at-all', ...(application(), from()) },
      body: rfc822({ from: 'Eve <eve@conformance.example>', subject: 'API Access Request', body: 'Usage: Trying without the shared secret.' }),
    }),
  },
  'POST /api/applications/inbound-email/ 429': {
    async before(ctx) {
      for (let i = 0; i < INBOUND_MAILS_PER_HOUR; i++) {
        const a = application();
        await http(`${ctx.t.urls.predictions}/api/applications/inbound-email/`, {
          method: 'POST',
          headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': SECRET, 'x-forwarded-for': EXHAUSTED_ADDRESS },
          body: rfc822({ from: `"${a.name}" <${a.email}>`, subject: 'API Access Request', body: `Usage: ${a.usage}` }),
        });
      }
    },
    request: () => {
      const a = application();
      return {
        method: 'POST',
        path: '/api/applications/inbound-email/',
        headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': SECRET, 'x-forwarded-for': EXHAUSTED_ADDRESS },
        body: rfc822({ from: `"${a.name}" <${a.email}>`, subject: 'API Access Request', body: `Usage: ${a.usage}` }),
      };
    },
  },
  'GET /api/retrain/:jobId/ 200': {
    async request(ctx) {
      const [newest] = (await gql(ctx.t, '{ trainingJobs(first: 1) { id } }')).body.data.trainingJobs;
      return { method: 'GET', path: `/api/retrain/${newest.id}/`, headers: { ...ctx.credentials.admin } };
    },
  },
  'POST /api/retrain/ 202': {
    request: retrainRequest,
    after: async (ctx, res) => endRun(ctx.t, gateOf(ctx), (JSON.parse(res.text) as { job_id: string }).job_id),
  },
  'POST /api/retrain/ 409': {
    async before(ctx) {
      const running = await http(`${ctx.t.urls.predictions}/api/retrain/`, { method: 'POST', key: ctx.t.adminKey });
      expect(running.status).toBe(202);
      ctx.state.running = running.body.job_id;
      await gateOf(ctx).reached(running.body.job_id);
    },
    request: retrainRequest,
    after: (ctx) => endRun(ctx.t, gateOf(ctx), ctx.state.running as string),
  },
};

export const predictionsFixture: SurfaceFixture = {
  env: {
    INBOUND_MAIL_SECRET: SECRET,
    TRUST_PROXY: 'loopback',
    APPLICATIONS_PER_HOUR: String(APPLICATIONS_PER_HOUR),
    INBOUND_MAILS_PER_HOUR: String(INBOUND_MAILS_PER_HOUR),
  },
  async setUp(t, state) {
    state.outbox = outbox(t.config.dataDir);
    // retrain runs started by the replay are held at their start and ended by the case that started them
    state.gate = trainingGate(t.app.services.predictions.training);
    const exhausted = await t.createKey('enterprise', { dailyLimit: 1 });
    expect((await http(`${t.urls.predictions}/api/`, { key: exhausted })).status).toBe(200);
    return { valid: bearer(await t.createKey('pro')), admin: bearer(t.adminKey), client: bearer(await t.createKey('free')), exhausted: bearer(exhausted) };
  },
  recipes,
};

/**
 * Hostile input over every route of every REST surface and every root field of the supergraph,
 * generated from the route tables (rest-adapter/surfaces.ts) and the schema (test/support/platform/hostile.ts):
 * malformed encodings, oversized and deeply nested bodies, wrong types, boundary numbers, Unicode edge
 * cases, garbled credentials. Each answer is a 2xx or 4xx, in time, without a stack trace; afterwards
 * the service answers as before. A new surface or root field is swept by being declared. Where a value
 * meets only shared code (the core's parsing, a refusal before any resolver), the routes and callers
 * take turns with it, the pairing turned by HOSTILE_ROTATION (random per run; named in each title).
 */
import { surfaceEntries, type SurfaceName } from '../../../../rest-adapter/surfaces';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { startAssistantProvider } from '../../../support/finance/assistant';
import { createUser, installValidLicence, login } from '../../../support/finance/node';
import { createLicence } from '../../../support/registry/registry';
import {
  apiSchema,
  documentCases,
  HOSTILE_ROTATION,
  operationCases,
  sendAll,
  surfaceCases,
  type HostileCase,
  type Outcome,
} from '../../../support/platform/hostile';

let t: TestApp;
let clientKey: string;
let licenceKey: string;
let financeToken: string;
let assistant: Awaited<ReturnType<typeof startAssistantProvider>>;

beforeAll(async () => {
  assistant = await startAssistantProvider();
  // production: the schema is closed to non-administrators, as it is for hostile callers; a production
  // node is configured with its secrets (without them its sign-in answers 503 improperly_configured)
  t = await startTestApp({
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    BACKTEST_SEASONS: '1',
    SERVER_JWT_KEY: 'hostile-input-test-jwt-key-0123456789abcdef',
    FRAMEWORK_SECRET_KEY: 'hostile-input-test-framework-key-0123456789abcdef',
    // the assistant's provider answers, so that what is sent to the assistant is what is tested
    ...assistant.env,
  });
  clientKey = await t.createKey('enterprise');
  licenceKey = (await createLicence(t)).key;
  // a licensed node and a signed-in user: hostile bodies reach the modules' own checks, not only the sign-in
  await installValidLicence(t);
  financeToken = await login(t, (await createUser(t)).username);
});
afterAll(async () => {
  await t?.stop();
  await assistant?.close();
});

const failures = (outcomes: Outcome[]) => outcomes.filter((o) => o.failure).map((o) => `${o.name}: ${o.failure}`);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Who calls each surface: anonymous, then each credential the surface accepts (each reaches different
 * checks).
 */
const CALLERS: Record<SurfaceName, [string, () => Record<string, string>][]> = {
  predictions: [
    ['anonymous', () => ({})],
    ['client key', () => bearer(clientKey)],
    ['administrator key', () => bearer(t.adminKey)],
  ],
  registry: [
    ['anonymous', () => ({})],
    ['licence key', () => ({ 'x-license-key': licenceKey })],
    ['administrator key', () => bearer(t.adminKey)],
  ],
  finance: [
    ['anonymous', () => ({})],
    ['signed-in user', () => bearer(financeToken)],
  ],
};

describe.each(surfaceEntries().flatMap(([name]) => CALLERS[name].map(([caller], i) => [name, caller, i] as const)))(
  `the %s surface, %s (HOSTILE_ROTATION=${HOSTILE_ROTATION})`,
  (name, _caller, i) => {
    it('answers every hostile request to every route with a 2xx or 4xx, in time, without a stack trace', async () => {
      const { surface } = surfaceEntries().find(([n]) => n === name)![1];
      // the garbled-credential cases replace the caller's headers: sent once, with the first caller
      const cases: HostileCase[] = surfaceCases(surface, t.urls[name], CALLERS[name][i][1](), { garbledCredentials: i === 0 });
      const outcomes = await sendAll(cases);
      expect(outcomes).toHaveLength(cases.length);
      expect(failures(outcomes)).toEqual([]);
    }, 600_000);
  },
);

describe(`the gateway (HOSTILE_ROTATION=${HOSTILE_ROTATION})`, () => {
  it('answers every root field with hostile arguments, and hostile documents, with a 2xx or 4xx, in time, without a stack trace', async () => {
    const schema = apiSchema();
    // the administrator's key reaches every resolver: every case; no key and a client's key are mostly refused
    // the same way before any resolver runs: they split the operations between them (operationCases)
    const cases = [
      ...operationCases(schema, t.urls.gateway, t.adminKey),
      ...operationCases(schema, t.urls.gateway, undefined, { index: 0, of: 2 }),
      ...operationCases(schema, t.urls.gateway, clientKey, { index: 1, of: 2 }),
      ...[undefined, clientKey, t.adminKey].flatMap((key) => documentCases(t.urls.gateway, key)),
    ];
    const outcomes = await sendAll(cases);
    expect(outcomes).toHaveLength(cases.length);
    expect(failures(outcomes)).toEqual([]);
  }, 300_000);
});

it('answers normally afterwards', async () => {
  expect((await http(`${t.urls.predictions}/api/`, { key: clientKey })).status).toBe(200);
  expect((await http(`${t.urls.predictions}/api/predictions/latest/?limit=3`, { key: clientKey })).body).toHaveLength(3);
  const gql = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key: clientKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ competitions { code } }' }),
  });
  expect(gql.status).toBe(200);
  expect(gql.body.data.competitions.length).toBeGreaterThan(0);
  for (const base of [t.urls.gateway, t.urls.predictions]) expect((await http(`${base}/readyz`)).status).toBe(200);
});

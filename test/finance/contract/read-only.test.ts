import { randomUUID } from 'node:crypto';
import { getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, type GraphQLInputType } from 'graphql';
import { z } from 'zod';
import { loadSubgraphs } from '../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(['finance']);
import { financeSurface } from '../../../rest-adapter/finance';
import { LEDGER_WRITERS } from '../../../subgraphs/finance/ledger/domain/writers';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminSignIn, changeNode, createUser, graphql, installValidLicence, login, PASSWORD, type AdminSession } from '../../support/finance/node';

/**
 * Licence read-only mode, enumerated: every write route of the finance surface (from its route
 * table) and every mutation of the node's subgraphs (from their schemas) is refused with 403
 * `licence_read_only` while the node has no valid licence, except the exemptions READ_ONLY_EXEMPT lists (subgraphs/finance/kernel/gate.ts)
 * (sign-in, the admin console's settings record and licence installation). A route or mutation
 * added later is covered by this test without changing it; a new exemption has to be listed here.
 */
const EXEMPT_MUTATIONS = [
  ...['nodeLogin', 'startAdminSession', 'completeAdminTotpEnrolment', 'endAdminSession', 'updateNodeSettings', 'installNodeLicence', 'activateNodeLicence'],
  // signing out changes no business data: a user can always end their sessions
  ...['nodeLogout', 'nodeLogoutAll', 'revokeNodeSession'],
  // the 2FA enrolment that sign-in may require
  ...['startTotpEnrolment', 'confirmTotpEnrolment'],
];
const EXEMPT_ROUTES = [
  'POST /api/login/',
  'POST /admin/login/',
  'POST /admin/login/2fa/',
  'POST /admin/logout/',
  'POST /admin/node/settings/',
  'POST /admin/node/licence/',
  'POST /admin/node/licence/activate/',
  'POST /api/auth/logout/',
  'POST /api/auth/logout-all/',
  'DELETE /api/auth/sessions/:id/',
  'POST /api/auth/2fa/enrol/',
  'POST /api/auth/2fa/confirm/',
];
/** Exempt routes that would end this test's own sessions: not called. */
const SIGN_OUTS = ['/admin/logout/', '/api/auth/logout/', '/api/auth/logout-all/'];

let t: TestApp;
let token: string;
let admin: AdminSession;
let adminName: string;

beforeAll(async () => {
  t = await startTestApp();
  const user = await createUser(t);
  token = await login(t, user.username);
  adminName = (await createUser(t, undefined, { superuser: true })).username;
  admin = await adminSignIn(t, adminName);
});
afterAll(() => t?.stop());

/** A value of an input type that passes GraphQL validation. */
function sample(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [sample(inner.ofType)];
  const named = getNamedType(inner);
  if (isInputObjectType(named)) {
    return Object.fromEntries(Object.values(named.getFields()).flatMap((f) => (isNonNullType(f.type) ? [[f.name, sample(f.type)]] : [])));
  }
  if (isEnumType(named)) return named.getValues()[0].name; // variables carry an enum's GraphQL name
  return { ID: randomUUID(), String: 'x', Boolean: true, Int: 1, Float: 1 }[named.name] ?? 'x';
}

async function financeMutations() {
  const out: { subgraph: string; name: string; query: string; variables: Record<string, unknown> }[] = [];
  // the finance node's subgraphs whose services hold the node's gate (every one but the kernel-less ones)
  const services = t.app.services as Record<string, object | undefined>;
  const finance = SUBGRAPHS.filter((def) => 'gate' in (services[def.name] ?? {}));
  expect(finance.map((def) => def.name)).toEqual(expect.arrayContaining(['node', 'identity', 'ledger']));
  for (const def of finance) {
    const schema = await def.buildSchema(undefined);
    for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
      if (field.astNode?.directives?.some((d) => d.name.value === 'inaccessible')) continue; // the gateway's own credential checks
      const params = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const selection = isObjectType(getNamedType(getNullableType(field.type))) ? ' { __typename }' : '';
      out.push({
        subgraph: def.name,
        name: field.name,
        query: `mutation ReadOnlyProbe${params ? `(${params})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`,
        variables: Object.fromEntries(field.args.map((a) => [a.name, sample(a.type)])),
      });
    }
  }
  return out;
}

const refused = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  ['FORBIDDEN', 'UNAUTHENTICATED'].includes(res.body.errors?.[0]?.extensions?.code ?? '');

/**
 * Runs a mutation as the node user; one the user may not call runs as the admin console's superuser,
 * and one only a money module may call (the ledger's) as that module's service principal.
 */
async function callMutation(m: { query: string; variables: Record<string, unknown> }) {
  const asUser = await graphql(t, m.query, m.variables, { authorization: `Bearer ${token}` });
  if (!refused(asUser)) return asUser;
  const asAdmin = await graphql(t, m.query, m.variables, { cookie: admin.cookie });
  if (!refused(asAdmin)) return asAdmin;
  const outcome = await t.app.gateway.execute({ query: m.query, variables: m.variables }, { headers: {} }, 'read-only', {
    kind: 'service',
    name: LEDGER_WRITERS[0],
  });
  return { status: outcome.status, body: outcome.body as { errors?: { extensions?: { code?: string; details?: { checks?: string[] } } }[] } };
}

/** A body that passes the route's schema. */
function sampleBody(schema: z.ZodType | undefined): Record<string, unknown> {
  if (!schema) return {};
  const js = z.toJSONSchema(schema, { unrepresentable: 'any' }) as { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] };
  return Object.fromEntries(
    (js.required ?? []).map((name) => [
      name,
      // an enum's first value, so that the request passes validation and reaches the gate
      js.properties?.[name]?.enum?.[0] ?? (js.properties?.[name]?.type === 'boolean' ? true : js.properties?.[name]?.type === 'number' ? 1 : 'x'),
    ]),
  );
}

/** The credential a route takes, as its client sends it: a console route the operator's session and its CSRF token, any other a user's token. */
function credentialOf(route: (typeof financeSurface.routes)[number]): { key?: string; headers: Record<string, string> } {
  return route.security === 'session' ? { headers: { cookie: admin.cookie, 'x-csrftoken': admin.csrf } } : { key: token, headers: {} };
}

function callRoute(route: (typeof financeSurface.routes)[number]) {
  const path = route.path.replace(/:([A-Za-z_]+)/g, () => randomUUID());
  if (route.consumes === 'form') {
    return http(`${t.urls.finance}${path}`, {
      method: route.method,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookie },
      body: new URLSearchParams({ csrfmiddlewaretoken: admin.csrf, username: 'nobody', password: 'wrong password', token: 'x', public_key: 'x' }).toString(),
    });
  }
  const query = new URLSearchParams(sampleBody(route.query) as Record<string, string>).toString();
  const url = `${t.urls.finance}${path}${query ? `?${query}` : ''}`;
  // a binary route takes a file as the body (the KYC upload: a PDF's first bytes)
  const { key, headers } = credentialOf(route);
  if (route.consumes === 'binary')
    return http(url, { method: route.method, key, headers: { ...headers, 'content-type': 'application/pdf' }, body: '%PDF-1.4\n' });
  return http(url, {
    method: route.method,
    key,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(sampleBody(route.body)),
  });
}

describe('a node without a valid licence is read-only', () => {
  it('refuses every mutation of the node, identity and ledger subgraphs with 403 LICENCE_READ_ONLY, but the exempt ones', async () => {
    const mutations = await financeMutations();
    expect(mutations.map((m) => m.name)).toEqual(expect.arrayContaining(EXEMPT_MUTATIONS));
    const seen: string[] = [];
    for (const m of mutations.filter((x) => !EXEMPT_MUTATIONS.includes(x.name))) {
      const res = await callMutation(m);
      const error = res.body.errors?.[0];
      expect([m.name, res.status, error?.extensions?.code, error?.extensions?.details?.checks]).toEqual([
        m.name,
        403,
        'LICENCE_READ_ONLY',
        ['app.E001', 'app.E002'],
      ]);
      seen.push(m.name);
    }
    expect(seen.length).toBeGreaterThanOrEqual(5);
    // (not the sign-outs: they would end this file's session)
    for (const m of mutations.filter((x) => EXEMPT_MUTATIONS.includes(x.name) && !['nodeLogout', 'nodeLogoutAll'].includes(x.name))) {
      const res = await callMutation(m);
      expect([m.name, res.body.errors?.[0]?.extensions?.code]).not.toEqual([m.name, 'LICENCE_READ_ONLY']);
    }
  });

  it('refuses every write route of the surface with 403 licence_read_only, but sign-in and the admin console settings and licence installation', async () => {
    const writes = financeSurface.routes.filter((r) => r.method !== 'GET');
    const exempt = writes.filter((r) => EXEMPT_ROUTES.includes(`${r.method} ${r.path}`));
    expect(exempt.map((r) => `${r.method} ${r.path}`).sort()).toEqual([...EXEMPT_ROUTES].sort());
    for (const route of writes.filter((r) => !exempt.includes(r))) {
      const res = await callRoute(route);
      if (route.consumes === 'form') {
        expect([route.path, res.status]).toEqual([route.path, 403]);
        expect(res.body).toContain('read-only');
      } else {
        expect([route.path, res.status, res.body.code, res.body.checks]).toEqual([route.path, 403, 'licence_read_only', ['app.E001', 'app.E002']]);
      }
    }
    for (const route of exempt.filter((r) => !SIGN_OUTS.includes(r.path))) {
      const res = await callRoute(route);
      expect([route.path, res.status]).not.toEqual([route.path, 403]);
    }
    // reads, the admin console and the probes keep working
    for (const path of ['/api/balance/', '/api/v1/node/', '/healthz', '/readyz'])
      expect([path, (await http(`${t.urls.finance}${path}`, { key: token })).status]).toEqual([path, 200]);
    expect((await http(`${t.urls.finance}/admin/`, { headers: { cookie: admin.cookie } })).status).toBe(200);
  });

  it('answers every non-exempt write with 403 before looking at its body: malformed JSON, an empty body, invalid fields, a wrong content type', async () => {
    const writes = financeSurface.routes.filter((r) => r.method !== 'GET' && !EXEMPT_ROUTES.includes(`${r.method} ${r.path}`) && r.consumes !== 'form');
    expect(writes.length).toBeGreaterThan(40);
    const bodies: [string, string][] = [
      ['application/json', '{"amount": '],
      ['application/json', '{}'],
      ['application/json', '{"amount": "not money", "currency": 7, "unknown": true}'],
      ['text/plain', 'hello'],
    ];
    for (const route of writes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, () => randomUUID());
      for (const [type, body] of bodies) {
        const { key, headers } = credentialOf(route);
        const res = await http(`${t.urls.finance}${path}`, { method: route.method, key, headers: { ...headers, 'content-type': type }, body });
        expect([route.method, route.path, body, res.status, res.body.code]).toEqual([route.method, route.path, body, 403, 'licence_read_only']);
      }
    }
    // an anonymous caller still learns nothing: its credential is refused first
    const anonymous = await http(`${t.urls.finance}/api/v1/transfers/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(anonymous.status).toBe(401);
  });

  it('returns to normal at once when a valid licence is installed: the same writes pass the gate', async () => {
    await changeNode(t, () => installValidLicence(t));
    const assistant = await http(`${t.urls.finance}/api/assistant/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: '{"question":"hi"}',
    });
    // past the gate: no provider key is configured, so the assistant says it is not configured
    expect([assistant.status, assistant.body.code]).toEqual([501, 'assistant_not_configured']);
    const enrol = await http(`${t.urls.finance}/api/auth/2fa/enrol/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: PASSWORD }),
    });
    expect(enrol.status).toBe(201);
    const branding = await http(`${t.urls.finance}/admin/node/branding/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookie },
      body: new URLSearchParams({ csrfmiddlewaretoken: admin.csrf, organisationName: 'Licensed Ltd' }).toString(),
    });
    expect([branding.status, branding.headers.get('location')]).toEqual([302, '/admin/node/branding/?saved=1']);
    expect((await http(`${t.urls.finance}/api/v1/config/`)).body.branding.organisation_name).toBe('Licensed Ltd');
  });
});

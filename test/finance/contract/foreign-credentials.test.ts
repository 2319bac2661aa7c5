import { FIELD_AUDIENCE } from '../../../subgraphs/finance/kernel/capabilities';
import { financeProduct } from '../../../subgraphs/finance/product';
import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { graphql, installValidLicence } from '../../support/finance/node';
import { FINANCE_GRAPHS, financeFields, placeholderOperation as operation } from '../../support/finance/fields';
import { createLicence } from '../../support/registry/registry';

/**
 * No other product's credential reaches the finance node's data. GENERATED from
 * the committed supergraph (schema/supergraph.graphql): every query and mutation a finance subgraph
 * owns (its `@join__field(graph: …)`), called with minimal valid arguments built from the types, with
 * a prediction API key, a prediction administrator key, a registry licence key and a registry
 * workspace session. Each answer is FORBIDDEN or UNAUTHENTICATED; a field anonymous callers may use
 * (sign-in, the node's public status) answers each of them exactly as it answers anonymous callers.
 * A new finance field is covered without editing this test.
 */
let t: TestApp;
beforeAll(async () => {
  // all three products: the other products' credentials are made by them
  t = await startTestApp({}, { products: PRODUCT_NAMES });
  await installValidLicence(t);
}, 240_000);
afterAll(() => t?.stop());

const REFUSED = ['FORBIDDEN', 'UNAUTHENTICATED'];
/**
 * The finance fields anyone may call (probes, the node's public status and settings for its clients,
 * provider webhooks checked by their signature, sign-in): another product's credential must get
 * exactly what an anonymous caller gets. A new public field has to be listed here.
 */
/** What answers anyone: the fields the capability table declares public (a new public field is declared there, not here). */
const PUBLIC = Object.entries(FIELD_AUDIENCE).flatMap(([field, audience]) => (audience === 'public' ? [field] : []));
type Answer = { code: string; data: unknown };
const answerOf = (body: { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] }): Answer => ({
  code: body.errors?.[0]?.extensions?.code ?? 'OK',
  data: body.data ?? null,
});

async function foreignCredentials(): Promise<Record<string, Record<string, string>>> {
  const { licensing } = t.app.services as unknown as {
    licensing: {
      workspace: {
        invite(i: { organisation: string; email: string; name: string }, actor: string): Promise<{ link: string }>;
        setPassword(token: string, password: string): Promise<void>;
        signIn(email: string, password: string): Promise<{ session: string }>;
      };
    };
  };
  const { link } = await licensing.workspace.invite({ organisation: 'demo', email: 'foreign@demo.example', name: 'Foreign' }, 'test');
  await licensing.workspace.setPassword(new URL(link).searchParams.get('token')!, 'foreign password 1');
  const { session } = await licensing.workspace.signIn('foreign@demo.example', 'foreign password 1');
  return {
    'prediction API key': { authorization: `Bearer ${await t.createKey('pro')}` },
    'prediction administrator key': { authorization: `Bearer ${t.adminKey}` },
    'registry licence key': { 'x-license-key': (await createLicence(t)).key },
    'registry workspace session': { cookie: `workspace_session=${session}` },
  };
}

it('finance owns queries and mutations in the supergraph (the generator finds them)', () => {
  expect(FINANCE_GRAPHS.size).toBe(financeProduct.subgraphs.length);
  expect(financeFields('Query')).toEqual(expect.arrayContaining(['nodeUser', 'ledgerAccounts']));
  expect(financeFields('Mutation')).toEqual(expect.arrayContaining(['setNodeUserKycLevel', 'createTransfer']));
});

it("answers every finance query and mutation to another product's credential with FORBIDDEN or UNAUTHENTICATED (public fields: as to anyone)", async () => {
  const credentials = await foreignCredentials();
  const leaks: string[] = [];
  let refusedFields = 0;
  const publicFields: string[] = [];
  for (const root of ['Query', 'Mutation'] as const) {
    for (const name of financeFields(root)) {
      const query = operation(root, name);
      const anonymous = answerOf((await graphql(t, query)).body);
      if (anonymous.code === 'GRAPHQL_VALIDATION_FAILED') leaks.push(`${name}: the generated operation is invalid (${query})`);
      const isPublic = !REFUSED.includes(anonymous.code);
      if (isPublic) publicFields.push(name);
      else refusedFields++;
      for (const [credential, headers] of Object.entries(credentials)) {
        const answer = answerOf((await graphql(t, query, {}, headers)).body);
        const fine = isPublic
          ? answer.code === anonymous.code && JSON.stringify(answer.data) === JSON.stringify(anonymous.data)
          : REFUSED.includes(answer.code);
        if (!fine) leaks.push(`${name} with a ${credential}: ${answer.code} ${JSON.stringify(answer.data)} (anonymous: ${anonymous.code})`);
      }
    }
  }
  expect(leaks).toEqual([]);
  expect(publicFields.filter((f) => !PUBLIC.includes(f))).toEqual([]);
  expect(refusedFields).toBeGreaterThan(100);
}, 600_000);

import { readFileSync } from 'node:fs';
import { FIELD_AUDIENCE } from '../../../subgraphs/finance/kernel/capabilities';
import { join } from 'node:path';
import {
  buildASTSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
  type DirectiveNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { projectRoot } from '../../../lib/paths';
import { financeProduct } from '../../../subgraphs/finance/product';
import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { graphql, installValidLicence } from '../../support/finance/node';
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

const sdl = readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8');
const document = parse(sdl);
const schema: GraphQLSchema = buildASTSchema(document, { assumeValidSDL: true });

/** The join__Graph enum value of each finance subgraph (IDENTITY → identity). */
const FINANCE_GRAPHS = new Set(
  document.definitions.flatMap((d) =>
    d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === 'join__Graph'
      ? (d.values ?? [])
          .filter((v) => {
            const name = v.directives?.find((x) => x.name.value === 'join__graph')?.arguments?.find((a) => a.name.value === 'name')?.value;
            return name?.kind === Kind.STRING && (financeProduct.subgraphs as readonly string[]).includes(name.value);
          })
          .map((v) => v.name.value)
      : [],
  ),
);

const graphOf = (directives: readonly DirectiveNode[] | undefined) =>
  directives
    ?.filter((d) => d.name.value === 'join__field')
    .map((d) => d.arguments?.find((a) => a.name.value === 'graph')?.value)
    .flatMap((v) => (v?.kind === Kind.ENUM ? [v.value] : [])) ?? [];

/** The root fields finance owns, callable through the gateway (not @inaccessible). */
function financeFields(root: 'Query' | 'Mutation'): string[] {
  return document.definitions.flatMap((d) =>
    (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && d.name.value === root
      ? (d.fields ?? [])
          .filter((f) => !f.directives?.some((x) => x.name.value === 'inaccessible'))
          .filter((f) => graphOf(f.directives).some((g) => FINANCE_GRAPHS.has(g)))
          .map((f) => f.name.value)
      : [],
  );
}

/** A literal of the type: required fields only, the first enum value, one list element; strings are `text`. */
function literal(type: GraphQLInputType, text: string, depth = 0): string {
  if (isNonNullType(type)) return literal(type.ofType, text, depth);
  if (isListType(type)) return `[${literal(type.ofType, text, depth)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined && depth < 5);
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type, text, depth + 1)}`).join(', ')} }`;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return '1';
      case 'Float':
        return '1.5';
      case 'Boolean':
        return 'false';
      case 'ID':
        return '"00000000-0000-4000-8000-000000000000"';
      case 'DateTimeISO':
        return '"2030-01-01T00:00:00.000Z"';
      case 'JSON':
      case 'JSONObject':
        return '{}';
      default:
        return JSON.stringify(text);
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

function operation(root: 'Query' | 'Mutation', name: string): string {
  const field = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name] as GraphQLField<unknown, unknown>;
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const named = getNamedType(field.type);
  const selection = isScalarType(named) || isEnumType(named) ? '' : ' { __typename }';
  const argList = args.length ? `(${args.map((a) => `${a.name}: ${literal(a.type, `x-${name}`)}`).join(', ')})` : '';
  return `${root === 'Query' ? 'query' : 'mutation'} { ${name}${argList}${selection} }`;
}

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

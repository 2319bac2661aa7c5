import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { useDocumentLimits } from '.';

/** Tokens, aliases and directives of the document, before anything else reads it. */
const typeDefs = 'type Query { item: Item } type Item { id: ID! name: String }';
const resolvers = { Query: { item: () => ({ id: 1, name: 'one' }) } };

let kit: PluginTestkit;
beforeAll(
  async () =>
    (kit = await pluginTestkit({
      typeDefs,
      resolvers,
      plugins: [],
      options: useDocumentLimits({ maxTokens: 120, maxFields: 40, maxAliases: 3, maxDirectives: 2 }),
    })),
);
afterAll(() => kit.stop());

const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: item { id }`).join(' ')} }`;

it('parses at most maxTokens tokens, then refuses with 400 GRAPHQL_PARSE_FAILED', async () => {
  const res = await kit.run(`{ ${'__typename '.repeat(200)} }`);
  expect(res.status).toBe(400);
  expect(res.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  expect(res.body.errors?.[0]?.message).toMatch(/more that 120 tokens/);
  expect((await kit.run(`{ ${'__typename '.repeat(20)} }`)).status).toBe(200);
});

it('counts aliases, fragments expanded, and refuses more than maxAliases (GraphQL Armor) with 400', async () => {
  expect((await kit.run(aliases(3))).status).toBe(200);
  const res = await kit.run(aliases(4));
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([{ message: 'Aliases limit of 3 exceeded, found 4.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' } }]);
  const viaFragment = await kit.run('{ ...F ...F } fragment F on Query { a: item { id } b: item { id } c: item { id } }');
  expect(viaFragment.body.errors?.[0]?.extensions?.limit).toBe('aliases');
});

it('refuses more than maxDirectives directives with 400', async () => {
  expect((await kit.run('{ item @skip(if: false) { id @include(if: true) } }')).status).toBe(200);
  const res = await kit.run('{ item @skip(if: false) { id @include(if: true) name @include(if: true) } }');
  expect(res.status).toBe(400);
  expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'directives' });
});

it('counts the fields of the operation with its fragments expanded, each fragment once, and refuses more than maxFields with 400', async () => {
  const doubling = (n: number) =>
    `{ ...F${n} } fragment F0 on Query { __typename } ` + Array.from({ length: n }, (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} }`).join(' ');
  expect((await kit.run(doubling(5))).status).toBe(200); // 32 fields
  const res = await kit.run(doubling(6)); // 64
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([
    {
      message: 'The operation selects 64 fields once its fragments are expanded; the limit is 40.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'fields' },
    },
  ]);
});

it('counts __typename aliases as aliases', async () => {
  const res = await kit.run('{ a: __typename b: __typename c: __typename d: __typename }');
  expect(res.body.errors?.[0]?.extensions?.limit).toBe('aliases');
});

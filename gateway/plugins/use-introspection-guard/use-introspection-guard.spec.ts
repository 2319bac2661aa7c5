import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { useIntrospectionGuard } from '.';

const typeDefs = 'type Query { hello: String }';
const resolvers = { Query: { hello: () => 'world' } };
const ADMIN = { kind: 'service', name: 'admin', administrator: true } as const;

describe('closed (production)', () => {
  let kit: PluginTestkit;
  beforeAll(async () => (kit = await pluginTestkit({ typeDefs, resolvers, plugins: [useIntrospectionGuard({ openToAll: false })] })));
  afterAll(() => kit.stop());

  it.each([
    ['__schema', '{ __schema { queryType { name } } }'],
    ['__type', '{ __type(name: "Query") { name } }'],
    ['__type in a fragment', '{ ...F } fragment F on Query { __type(name: "Query") { name } }'],
    ['__schema in an inline fragment beside a field', '{ hello ... on Query { __schema { types { name } } } }'],
  ])('refuses %s to a non-administrator with 403 FORBIDDEN and no data', async (_name, query) => {
    const res = await kit.run(query);
    expect(res.status).toBe(403);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([{ message: 'Introspection is restricted to administrator keys.', extensions: { code: 'FORBIDDEN' } }]);
  });

  it('leaves __typename and ordinary fields open', async () => {
    const res = await kit.run('{ __typename hello }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query', hello: 'world' } });
  });

  it('lets an administrator introspect', async () => {
    const res = await kit.run('{ __schema { queryType { name } } }', { principal: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('suggestions in error messages', () => {
  // "Did you mean" names fields, arguments, enum values and types of the schema
  const suggestive = [
    ['a field', '{ helo }', 'Cannot query field "helo" on type "Query".'],
    ['an argument', '{ greet(nam: "x") }', 'Unknown argument "nam" on field "Query.greet".'],
    ['an enum value', '{ greet(tone: WARN) }', 'Value "WARN" does not exist in "Tone" enum.'],
    ['a type', 'query ($t: Ton) { greet(tone: $t) }', 'Unknown type "Ton".'],
  ];
  const suggestionTypeDefs = 'type Query { hello: String greet(name: String, tone: Tone): String } enum Tone { WARM COLD }';

  it.each(suggestive)('takes them out for a non-administrator (%s), in production', async (_what, query, message) => {
    const kit = await pluginTestkit({ typeDefs: suggestionTypeDefs, resolvers, plugins: [useIntrospectionGuard({ openToAll: false })] });
    try {
      const res = await kit.run(query);
      expect(res.status).toBe(400);
      expect(res.body.errors?.map((e: { message: string }) => e.message)).toEqual([message]);
    } finally {
      await kit.stop();
    }
  });

  it('keeps them for an administrator: known before authentication by identifying the caller without metering', async () => {
    const identified: string[] = [];
    const kit = await pluginTestkit({
      typeDefs: suggestionTypeDefs,
      resolvers,
      plugins: [
        useIntrospectionGuard({
          openToAll: false,
          identify: async (ctx) => {
            identified.push(String(ctx.headers.authorization));
            return ctx.headers.authorization === 'Bearer admin' ? ADMIN : { kind: 'anonymous' };
          },
        }),
      ],
    });
    try {
      expect((await kit.run('{ helo }', { headers: { authorization: 'Bearer admin' } })).body.errors?.[0]?.message).toBe(
        'Cannot query field "helo" on type "Query". Did you mean "hello"?',
      );
      expect((await kit.run('{ helo }', { headers: { authorization: 'Bearer someone' } })).body.errors?.[0]?.message).toBe(
        'Cannot query field "helo" on type "Query".',
      );
      expect((await kit.run('{ helo }', { principal: ADMIN })).body.errors?.[0]?.message).toMatch(/Did you mean "hello"\?$/);
      expect(identified).toEqual(['Bearer admin', 'Bearer someone']);
    } finally {
      await kit.stop();
    }
  });

  it('keeps them in development, where the schema is open', async () => {
    const kit = await pluginTestkit({ typeDefs: suggestionTypeDefs, resolvers, plugins: [useIntrospectionGuard({ openToAll: true })] });
    try {
      expect((await kit.run('{ helo }')).body.errors?.[0]?.message).toMatch(/Did you mean "hello"\?$/);
    } finally {
      await kit.stop();
    }
  });
});

describe('open (development)', () => {
  it('lets anyone introspect', async () => {
    const kit = await pluginTestkit({ typeDefs, resolvers, plugins: [useIntrospectionGuard({ openToAll: true })] });
    try {
      const res = await kit.run('{ __type(name: "Query") { name } }');
      expect(res.body).toEqual({ data: { __type: { name: 'Query' } } });
    } finally {
      await kit.stop();
    }
  });
});

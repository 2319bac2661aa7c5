import { makeExecutableSchema } from '@graphql-tools/schema';
import { createLogger } from '../lib/logger';
import { ANONYMOUS } from '../lib/principal';
import { InProcessDataSource } from './datasources';

/**
 * The in-process data source coerces variables as graphql-js (and so a remote subgraph) does: an input
 * object that leaves out a non-null field with a default gets the default.
 */
const typeDefs = `
  enum Plan { free pro }
  input NewKey { name: String!, plan: Plan! = free, tags: [String!]! = ["a"], limits: [Limit!] }
  input Limit { per: String! = "day", max: Int! }
  type Query { echo(input: NewKey!): String!, echoAll(inputs: [NewKey!]!): String! }
`;
const schema = makeExecutableSchema({
  typeDefs,
  resolvers: {
    Query: {
      echo: (_: unknown, { input }: { input: unknown }) => JSON.stringify(input),
      echoAll: (_: unknown, { inputs }: { inputs: unknown }) => JSON.stringify(inputs),
    },
  },
});
const source = new InProcessDataSource(schema, createLogger('silent'));
const run = (query: string, variables: Record<string, unknown>) => source.call(query, variables, ANONYMOUS, { requestId: 'spec' });

it('fills in the defaults of the fields a variable leaves out, nested and in lists', async () => {
  const res = await run('query($input: NewKey!) { echo(input: $input) }', { input: { name: 'x', limits: [{ max: 3 }] } });
  expect(res.errors).toBeUndefined();
  expect(JSON.parse(res.data!.echo as string)).toEqual({ name: 'x', plan: 'free', tags: ['a'], limits: [{ per: 'day', max: 3 }] });
  const all = await run('query($inputs: [NewKey!]!) { echoAll(inputs: $inputs) }', { inputs: [{ name: 'a' }, { name: 'b', plan: 'pro' }] });
  expect(JSON.parse(all.data!.echoAll as string)).toEqual([
    { name: 'a', plan: 'free', tags: ['a'] },
    { name: 'b', plan: 'pro', tags: ['a'] },
  ]);
});

it('keeps what the variable gives, and still refuses what it must give', async () => {
  const given = await run('query($input: NewKey!) { echo(input: $input) }', { input: { name: 'x', plan: 'pro', tags: [] } });
  expect(JSON.parse(given.data!.echo as string)).toEqual({ name: 'x', plan: 'pro', tags: [] });
  const missing = await run('query($input: NewKey!) { echo(input: $input) }', { input: { plan: 'pro' } });
  expect(missing.data).toBeUndefined();
  expect(missing.errors![0].message).toMatch(/name of required type String! was not provided/);
  const explicitNull = await run('query($input: NewKey!) { echo(input: $input) }', { input: { name: 'x', plan: null } });
  expect(explicitNull.errors![0].message).toMatch(/Expected non-nullable type Plan! not to be null/);
});

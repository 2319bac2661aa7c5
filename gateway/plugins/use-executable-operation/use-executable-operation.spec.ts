import type { ApolloServerPlugin } from '@apollo/server';
import { parse, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext } from '../../context';
import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { useExecutableOperation, withDefaults } from '.';

/** What a later plugin (the limits, the gateway's executor) sees of the request's variables. */
const seen: (Record<string, unknown> | undefined)[] = [];
const recorder: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request }) {
        seen.push(request.variables);
      },
    };
  },
};

let kit: PluginTestkit;
beforeAll(
  async () =>
    (kit = await pluginTestkit({
      typeDefs: 'type Query { items(first: Int!, filter: Filter): [Int!]! } input Filter { tags: [String!] order: Order = ASC } enum Order { ASC DESC }',
      resolvers: { Query: { items: (_: unknown, a: { first: number }) => Array.from({ length: a.first }, (_x, i) => i) } },
      plugins: [useExecutableOperation(), recorder],
    })),
);
afterAll(() => kit.stop());
beforeEach(() => (seen.length = 0));

it('completes the variables a client left out with their defaults (as JSON), keeping what it sent', async () => {
  const query = 'query ($m: Int! = 5, $f: Filter = { tags: ["a"], order: DESC }) { items(first: $m, filter: $f) }';
  const res = await kit.run(query, { variables: { other: null } });
  expect(res.body.data.items).toHaveLength(5);
  expect(seen).toEqual([{ other: null, m: 5, f: { tags: ['a'], order: 'DESC' } }]);
  await kit.run(query, { variables: { m: 2 } });
  expect(seen[1]).toEqual({ m: 2, f: { tags: ['a'], order: 'DESC' } });
});

it('keeps an explicit null over the default (as GraphQL executes it)', () => {
  const operation = parse('query ($a: Int = 3, $b: Int = 4) { __typename }').definitions[0] as OperationDefinitionNode;
  expect(withDefaults(operation, { a: null })).toEqual({ a: null, b: 4 });
});

it('answers a document whose operation does not resolve with 400, not 500', async () => {
  const several = await kit.run('query A { items(first: 1) } query B { items(first: 2) }');
  expect(several.status).toBe(400);
  expect(several.body.errors).toEqual([
    { message: 'The document has several operations: name one in operationName.', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } },
  ]);
  const subscription = await kit.run('subscription { items }');
  expect(subscription.status).toBe(400);
  expect(subscription.body.errors?.[0]?.extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
});

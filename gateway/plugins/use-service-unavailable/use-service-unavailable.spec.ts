import { GraphQLError } from 'graphql';
import { serviceUnavailable } from '../../../lib/errors';
import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { useServiceUnavailable } from '.';

/** What node-postgres throws when the database's port is closed (PostgreSQL killed or restarting). */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED', address: '10.0.0.7', port: 5432 });
/** What it throws when the server shuts down under an open connection. */
const terminated = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

let kit: PluginTestkit;
beforeAll(
  async () =>
    (kit = await pluginTestkit({
      typeDefs: 'type Query { refused: String terminated: String mapped: String fine: String broken: String }',
      resolvers: {
        Query: {
          refused: () => Promise.reject(refused()),
          terminated: () => Promise.reject(terminated()),
          mapped: () => Promise.reject(serviceUnavailable()),
          fine: () => 'yes',
          broken: () => Promise.reject(new Error('a real bug')),
        },
      },
      plugins: [useServiceUnavailable()],
    })),
);
afterAll(() => kit.stop());

it.each(['refused', 'terminated', 'mapped'])('answers %s (database unreachable) with 503 SERVICE_UNAVAILABLE and Retry-After', async (field) => {
  const res = await kit.run(`{ ${field} }`);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.body.errors).toEqual([
    {
      message: 'The service is temporarily unavailable; please retry shortly.',
      path: [field],
      locations: [{ line: 1, column: 3 }],
      extensions: { code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 5 } },
    },
  ]);
  expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.7|ECONNREFUSED|administrator/);
});

it('leaves other errors and answers alone', async () => {
  const ok = await kit.run('{ fine }');
  expect(ok.status).toBe(200);
  expect(ok.headers.get('retry-after')).toBeUndefined();
  const bug = await kit.run('{ broken }');
  expect(bug.headers.get('retry-after')).toBeUndefined();
  expect(bug.body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
});

it("maps a subgraph's fetch failure that the gateway's query plan passes on unwrapped (not a GraphQLError) to 503, and leaves other raw errors", async () => {
  const hooks = await useServiceUnavailable().requestDidStart!({} as never);
  const unreachable = Object.assign(new Error('request to http://football:4001/graphql failed, reason: connect EHOSTUNREACH 10.89.0.9:4001'), {
    code: 'EHOSTUNREACH',
    type: 'system',
  });
  const other = new Error('a real bug');
  const errors = [unreachable, other] as unknown as GraphQLError[];
  await (hooks as { didEncounterErrors(ctx: unknown): Promise<void> }).didEncounterErrors({ errors });
  expect(errors[0]).toBeInstanceOf(GraphQLError);
  expect(errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', http: { status: 503 } });
  expect((errors[0].extensions.http as { headers: Map<string, string> }).headers.get('retry-after')).toBe('5');
  expect(errors[1]).toBe(other);
});

import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { SubgraphCallRecorder } from '../../support/platform/subgraph-calls';

/**
 * Entity batching: fifty matches with their predictions take one fetch of the football subgraph and
 * one `_entities` fetch of the predictions subgraph carrying all fifty representations.
 */
const recorder = new SubgraphCallRecorder();
let t: TestApp<'predictions'>;
beforeAll(async () => (t = await startTestApp({}, { decorateDataSource: recorder.decorate, products: ['predictions'] })));
afterAll(() => t?.stop());

it('resolves fifty Match.prediction fields with one batched _entities fetch', async () => {
  const query = '{ matches(first: 50, order: DESC, filter: { competition: "en.1" }) { nodes { id prediction { confidence versionNumber } } } }';
  const { result, calls } = await recorder.forRequest((id) =>
    http(`${t.urls.gateway}/graphql`, {
      method: 'POST',
      key: t.adminKey,
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ query }),
    }),
  );
  expect(result.status).toBe(200);
  expect(result.body.errors).toBeUndefined();
  const nodes = result.body.data.matches.nodes as { id: number; prediction: unknown }[];
  expect(nodes).toHaveLength(50);
  expect(calls).toCallSubgraph('football', 1);
  expect(calls).toCallSubgraph('predictions', 1);
  const fetch = calls.find((c) => c.subgraph === 'predictions')!;
  expect(fetch.query).toMatch(/_entities\(representations:/);
  const representations = fetch.variables.representations as { __typename: string; id: number }[];
  expect(representations).toHaveLength(50);
  expect(representations.map((r) => r.__typename)).toEqual(Array(50).fill('Match'));
  expect(new Set(representations.map((r) => r.id))).toEqual(new Set(nodes.map((n) => n.id)));
});

import { loadOperations } from '../../../rest-adapter/core/operations';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http } from '../../support/platform/http';
import { SubgraphCallRecorder } from '../../support/platform/subgraph-calls';

/**
 * @provides: a prediction's `match { homeTeam { id name } awayTeam { id name } }` is provided by the
 * predictions subgraph itself, so the latest-predictions path never asks the football subgraph.
 */
const recorder = new SubgraphCallRecorder();
let t: TestApp<'predictions'>;
// the plans themselves are under test: each request executes (the response cache would answer the second)
beforeAll(async () => (t = await startTestApp({ RESPONSE_CACHE: 'off' }, { decorateDataSource: recorder.decorate, products: ['predictions'] })));
afterAll(() => t?.stop());

/** The request id the recorder tells this request's subgraph calls by. */
const tagged = (id: string, variables: Record<string, unknown> = {}) => ({ variables, headers: { 'x-request-id': id } });

it('answers the REST surface’s latest-predictions operation from the predictions subgraph alone', async () => {
  const document = loadOperations('predictions', ['LatestPredictions']).get('LatestPredictions')!;
  const { result, calls } = await recorder.forRequest((id) => gql(t, document, tagged(id, { first: 20, competition: null })));
  expect(result.status).toBe(200);
  expect(result.body.data.latestPredictions.predictions.length).toBeGreaterThan(0);
  for (const p of result.body.data.latestPredictions.predictions) expect(typeof p.match.homeTeam.name).toBe('string');
  expect(calls).toCallSubgraph('predictions', 1);
  expect(calls).not.toCallSubgraph('football');
  // and through the REST surface itself
  const rest = await recorder.forRequest((id) => http(`${t.urls.predictions}/api/predictions/latest/`, { key: t.adminKey, headers: { 'x-request-id': id } }));
  expect(rest.result.status).toBe(200);
  expect(rest.calls).toCallSubgraph('predictions', 1);
  expect(rest.calls).not.toCallSubgraph('football');
});

it('fetches from the football subgraph as soon as a field outside the provided set is asked for', async () => {
  // the matcher can fail: aliases are not provided
  const { calls } = await recorder.forRequest((id) => gql(t, '{ upcomingPredictions(first: 3) { match { homeTeam { name aliases } } } }', tagged(id)));
  expect(calls).toCallSubgraph('predictions', 1);
  expect(calls).toCallSubgraph('football', 1);
});

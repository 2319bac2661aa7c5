import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { SubgraphCallRecorder } from '../../support/platform/subgraph-calls';

/**
 * @key resolution across subgraphs: a prediction (predictions subgraph) knows only its match's id;
 * the match's competition comes from the football subgraph, which resolves `Match` by its `@key(id)`.
 * (The supergraph uses no @requires.)
 */
const recorder = new SubgraphCallRecorder();
let t: TestApp<'predictions'>;
beforeAll(async () => (t = await startTestApp({}, { decorateDataSource: recorder.decorate, products: ['predictions'] })));
afterAll(() => t?.stop());

it('resolves Match by its key in the football subgraph for fields the predictions subgraph does not own', async () => {
  const query = '{ upcomingPredictions(first: 5, competition: "en.1") { matchId match { id competition { code } season } } }';
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
  const rows = result.body.data.upcomingPredictions as { matchId: number; match: { id: number; competition: { code: string }; season: string } }[];
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    expect(r.match.id).toBe(r.matchId);
    expect(r.match.competition.code).toBe('en.1');
    expect(r.match.season).toMatch(/^\d{4}-\d{2}$/);
  }
  expect(calls.map((c) => c.subgraph)).toEqual(['predictions', 'football']);
  const football = calls[1];
  expect(football.query).toMatch(/_entities\(representations:/);
  expect(football.variables.representations).toEqual(rows.map((r) => ({ __typename: 'Match', id: r.matchId })));
});

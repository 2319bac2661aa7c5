import { loadOperations } from '../../../rest-adapter/core/operations';
import { predictionRoutes } from '../../../rest-adapter/predictions/routes';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { graphqlAt } from '../../support/platform/http';
import { startChildApp, type ChildApp } from '../../support/platform/child-app';

/**
 * An operation whose plan is a single fetch selecting what the client asked is sent to its subgraph
 * as planned and answered as the subgraph answers; one whose plan fetches its root fields from several
 * subgraphs in parallel, each fetch a part of the client's root fields as written, has the answers put
 * side by side (gateway/supergraph-executor.ts). Its answers, errors
 * and statuses are those of @apollo/gateway's executor: the same operations, sent to this process
 * (direct) and to a second instance on the same database with GATEWAY_DIRECT_FETCH off, answer the
 * same bytes. The response cache is off in both: every request executes.
 */
let direct: TestApp<'predictions'>;
let planned: ChildApp;
let clientKey: string;
beforeAll(async () => {
  direct = await startTestApp({ RESPONSE_CACHE: 'off' }, { products: ['predictions'] });
  planned = await startChildApp({ RESPONSE_CACHE: 'off', GATEWAY_DIRECT_FETCH: 'off' }, { databaseUrl: direct.databaseUrl });
  clientKey = await direct.createKey('pro');
}, 120_000);
afterAll(async () => {
  await planned?.stop();
  await direct?.stop();
});

/** Each instance's own settings, which its answers tell: the mailbox's port, whether a feed is configured. */
function withoutOwnSettings(body: unknown): unknown {
  const data = (body as { data?: Record<string, Record<string, unknown> | undefined> }).data;
  if (data?.applicationMailbox) delete data.applicationMailbox.smtpPort;
  if (data?.footballFeed) delete data.footballFeed.configured;
  return body;
}

async function same(query: string, variables: Record<string, unknown> = {}, key = direct.adminKey) {
  const [a, b] = await Promise.all([graphqlAt(direct.urls.gateway, query, { key, variables }), graphqlAt(planned.urls.gateway, query, { key, variables })]);
  expect({ status: a.status, body: withoutOwnSettings(a.body) }).toEqual({ status: b.status, body: withoutOwnSettings(b.body) });
  return a;
}

/** `viaGateway`: a plan the executor leaves to @apollo/gateway (answered the same all the same). */
const CASES: { name: string; query: string; variables?: Record<string, unknown>; client?: boolean; viaGateway?: boolean }[] = [
  {
    name: 'aliases, __typename and enums',
    query: '{ a: upcomingPredictions(first: 3) { __typename id: matchId predictedOutcome confidenceBand probabilities { home draw away } } }',
  },
  {
    name: '@include and @skip by variables',
    query: 'query ($x: Boolean!) { upcomingPredictions(first: 2) { matchId confidence @include(if: $x) kickoff @skip(if: $x) } }',
    variables: { x: true },
  },
  {
    name: 'the same, the other way',
    query: 'query ($x: Boolean!) { upcomingPredictions(first: 2) { matchId confidence @include(if: $x) kickoff @skip(if: $x) } }',
    variables: { x: false },
  },
  { name: 'a variable of the wrong type (400)', query: 'query ($n: Int!) { upcomingPredictions(first: $n) { matchId } }', variables: { n: 'five' } },
  { name: 'a missing required variable (400)', query: 'query ($n: Int!) { upcomingPredictions(first: $n) { matchId } }', variables: {} },
  { name: 'a domain error (400, its details)', query: '{ upcomingPredictions(first: 1000) { matchId } }' },
  { name: 'not found (404)', query: '{ trainingJob(id: "00000000-0000-0000-0000-000000000000") { id } }' },
  { name: 'forbidden to a client key (403)', query: '{ trainingJobs { id } }', variables: {}, client: true },
  { name: 'a nullable root field', query: '{ activeModelVersion { number metrics { rps calibration { ece } } live { results } } }' },
  // root fields of several subgraphs, fetched in parallel
  {
    name: 'root fields of three subgraphs, aliased, in the order written',
    query: '{ b: competitions { code name } plans { code dailyLimit } a: activeModelVersion { number } viewer { prefix role } }',
  },
  {
    name: 'variables of several subgraphs, each fetch given its own',
    query: 'query ($n: Int!, $x: Boolean!) { teams(first: $n) { name } upcomingPredictions(first: $n) { matchId confidence @include(if: $x) } plans { code } }',
    variables: { n: 2, x: true },
  },
  {
    // the planner makes the skipped fetch a condition of its own
    name: 'a root field skipped by a variable',
    query: 'query ($x: Boolean!) { competitions @skip(if: $x) { code } plans { code } }',
    variables: { x: true },
    viaGateway: true,
  },
  {
    name: 'a variable of the wrong type across subgraphs (400)',
    query: 'query ($n: Int!) { teams(first: $n) { name } plans { code } }',
    variables: { n: 'two' },
  },
  {
    name: 'a non-null root field failing beside another subgraph (no data)',
    query: '{ competitions { code } trainingJob(id: "00000000-0000-0000-0000-000000000000") { id } }',
  },
  { name: 'a field forbidden to a client key beside another subgraph', query: '{ plans { code } trainingJobs { id } }', client: true },
  {
    name: 'a pairing forecast',
    query: '{ predict(home: "Arsenal", away: "Chelsea", competition: "en.1") { outcomeLabel probabilities { home } homeTeam { id } } }',
  },
];

it.each(CASES)('$name: the same answer and status as the planned execution', async ({ query, variables, client, viaGateway }) => {
  expect(direct.app.gateway.describe(query).direct).toBe(!viaGateway);
  await same(query, variables, client ? clientKey : direct.adminKey);
});

it('sends every single-subgraph persisted operation of the prediction API directly, and answers them the same', async () => {
  const names = [...new Set(predictionRoutes.flatMap((r) => (r.operation && !r.reply ? [r.operation] : [])))];
  const documents = loadOperations('predictions', names);
  const variables: Record<string, Record<string, unknown>> = { LatestPredictions: { first: 5, competition: null }, UpcomingFixtures: { first: 3 } };
  let directOnes = 0;
  for (const name of [
    'ServiceInfo',
    'LatestPredictions',
    'PredictionOverview',
    'ConfidenceDistribution',
    'ModelVersions',
    'CompareVersions',
    'UpcomingFixtures',
    'RetrainProgress',
  ]) {
    const document = documents.get(name)!;
    if (direct.app.gateway.describe(document).direct) directOnes++;
    await same(document, variables[name] ?? {});
  }
  expect(directOnes).toBeGreaterThanOrEqual(6);
  // root fields of two subgraphs, fetched in parallel
  expect(direct.app.gateway.describe(documents.get('ServiceInfo')!).direct).toBe(true);
});

it('leaves to the gateway an operation whose plan fetches one subgraph after another', () => {
  // the predictions' teams come from the football subgraph, by entity, after the predictions are fetched
  expect(direct.app.gateway.describe('{ upcomingPredictions(first: 2) { matchId match { homeTeam { name country } } } }').direct).toBe(false);
});

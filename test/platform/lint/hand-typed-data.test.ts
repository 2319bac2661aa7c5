import * as parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { configuredRule } from '../../support/platform/eslint-rules';

/**
 * A REST route's data, and the data a page helper is handed, is its operation's generated result
 * (ResultOf<'Name'>), and a named result shape (…Data, …Row, …View, …Info) is an alias of a generated type:
 * the lint rule in eslint.config.mjs refuses a hand-typed shape. The rule is read
 * from the project's own configuration for a file of rest-adapter/ (so this tests the rule as it is
 * configured, not a copy), then run on each shape it must refuse and each it must let through.
 */
const FILES = [
  'rest-adapter/finance/admin/users.ts',
  'rest-adapter/registry/workspace/licences.ts',
  'rest-adapter/predictions/application-pages.ts',
  'rest-adapter/console/kit.ts',
  'rest-adapter/console/pages.spec.ts',
];
/** The rule's configuration for each file, as ESLint computes it from eslint.config.mjs (an ES module: read in a child process). */
const configured = configuredRule('no-restricted-syntax', FILES);

const rule = configured['rest-adapter/finance/admin/users.ts']!;
const problems = (code: string) =>
  new Linter({ configType: 'flat' })
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser }, rules: { 'no-restricted-syntax': rule } }], 'rest-adapter/probe.ts')
    .map((m) => `${m.line}: ${m.ruleId ?? m.message}`);

it.each([
  ["a route's respond", "route({ operation: 'NodeUsers', respond: (data: { nodeUsers: { id: string }[] }) => data });"],
  ['a page helper (function)', 'function usersPage(data: { nodeUsers: UserRow[] }, input: AnyRouteInput): Reply { return reply(data, input); }'],
  ['a page helper (arrow)', 'const withUser = (data: { nodeAdminUser?: { username: string } }) => data.nodeAdminUser?.username;'],
  ['a nullable hand-typed shape', 'const page = (data: { nodeUsers: string[] } | null) => data;'],
  ['a list of hand-typed rows', 'const rows = (data: { id: string }[]) => data.length;'],
  ['a named result shape restating its fields', 'interface ForecastData { confidence: number; versionNumber: number }'],
  ['an exported one', 'export interface PlanInfo { name: string; dailyLimit: number | null }'],
  ['one that extends another', 'interface StoredPredictionData extends ForecastData { correct: boolean | null }'],
  ['a restating type alias', 'type UserRow = { id: string; username: string };'],
  ['a restating alias that adds fields', 'type ConfirmationView = { state: string; name: string | null } & { token: string };'],
])('refuses a hand-typed data parameter: %s', (_name, code) => {
  expect([...new Set(problems(code))]).toEqual(['1: no-restricted-syntax']);
});

it.each([
  ['the generated result', "function usersPage(data: ResultOf<'NodeUsers'>, input: AnyRouteInput): Reply { return reply(data, input); }"],
  ['a generated row type', "const row = (data: ResultOf<'NodeUsers'>['nodeUsers'][number]) => data.id;"],
  ['an untyped respond (route() types it)', "route({ operation: 'NodeUsers', respond: (data) => data });"],
  ['another parameter with an object type', 'const cell = (row: { userId: string }) => row.userId;'],
  ['a named generated result', "type UserRow = ResultOf<'NodeUsers'>['nodeUsers'][number];"],
  ['a named union of generated results', "type JobData = NonNullable<ResultOf<'TrainingJob'>['trainingJob']> | ResultOf<'RetrainModel'>['retrainModel'];"],
  ["a fragment's type with what the page adds", 'type ConfirmationView = ApplicationConfirmationFieldsFragment & { token: string };'],
  ['an interface of another kind (route input, not a result)', 'interface ListInput { limit: number; cursor?: string }'],
])('lets through %s', (_name, code) => {
  expect(problems(code)).toEqual([]);
});

it('applies to every product of rest-adapter/, not to its specs', () => {
  expect(rule).toBeTruthy();
  for (const file of FILES.filter((f) => !f.endsWith('.spec.ts'))) expect([file, configured[file]]).toEqual([file, rule]);
  expect(configured['rest-adapter/console/pages.spec.ts']).not.toEqual(rule);
});

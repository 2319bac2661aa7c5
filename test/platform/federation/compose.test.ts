import { buildSubgraphSchema } from '@apollo/subgraph';
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import { composeUrl, loadSubgraphs, PRODUCT_NAMES, SHIPPED_SETS, subgraphNamesOf, supergraphFile } from '../../../subgraphs/products';
import { CompositionError, composeSupergraph, subgraphSdl } from '../../../gateway/compose';
import { projectRoot } from '../../../lib/paths';
import { assertBuilt } from '../../support/platform/child-app';

/**
 * schema/ holds the composed supergraph and one SDL per subgraph; `compose --check` guards it.
 * The check runs for real, also on a throw-away copy of the checkout (dist/, package.json, schema/)
 * whose schema/ is then tampered with, so that the committed files are never touched.
 */

const root = projectRoot();

function runScript(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

const FEDERATION = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';
const subgraph = (name: string, sdl: string) => ({
  name,
  url: `http://${name}:4000/graphql`,
  schema: buildSubgraphSchema({ typeDefs: parse(`${FEDERATION}\n${sdl}`) }),
});

let copy: string;
beforeAll(() => {
  assertBuilt('dist/bin/compose.js');
  // a checkout of its own: projectRoot() of the copied dist/ is the copy
  copy = mkdtempSync(join(tmpdir(), 'matchday-compose-'));
  cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  cpSync(join(root, 'schema'), join(copy, 'schema'), { recursive: true });
  // the persisted operations: compose writes the finance readiness operation from the subgraphs' schemas too, and every operation's types
  for (const product of readdirSync(join(root, 'rest-adapter'))) {
    const operations = join('rest-adapter', product, 'operations');
    if (existsSync(join(root, operations))) cpSync(join(root, operations), join(copy, operations), { recursive: true });
  }
  cpSync(join(root, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('compose --check', () => {
  it('exits 0 on the committed schema/', async () => {
    const res = await runScript(join(root, 'dist', 'bin', 'compose.js'), ['--check']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^schema\/, rest-adapter\/finance\/operations\/Readiness\.graphql and the operations' types are up to date \(\d+ files\)\.\n$/);
  });

  it('composes, from the sources, exactly the committed files, byte for byte', async () => {
    const built = await Promise.all(
      loadSubgraphs(PRODUCT_NAMES).map(async (def) => ({ name: def.name, url: composeUrl(def.name), schema: await def.buildSchema(undefined) })),
    );
    const expected = new Map<string, string>(built.map((s) => [`${s.name}.graphql`, subgraphSdl(s.schema).trim() + '\n']));
    // one supergraph per shipped product set, each of its own subgraphs only
    for (const set of SHIPPED_SETS) {
      const names = subgraphNamesOf(set);
      expected.set(supergraphFile(set).replace(/^schema\//, ''), composeSupergraph(built.filter((s) => names.includes(s.name))).trim() + '\n');
    }
    expect(expected.has('supergraph.finance.graphql')).toBe(true);
    const committed = readdirSync(join(root, 'schema'))
      .filter((f) => f.endsWith('.graphql'))
      .sort();
    expect(committed).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) expect(readFileSync(join(root, 'schema', name), 'utf8')).toBe(content);
  });

  it('detects a changed, a missing and a stale file in a copy of schema/ and stale operation types, and `compose` rewrites them', async () => {
    const compose = join(copy, 'dist', 'bin', 'compose.js');
    const schemaDir = join(copy, 'schema');
    const operations = join(copy, 'rest-adapter', 'predictions', 'operations');
    const viewerType = () =>
      /^export type ServiceInfoQuery = \{\n {2}viewer: \{\n([^}]*)\}/m.exec(readFileSync(join(operations, 'types.generated.ts'), 'utf8'))?.[1];
    // the copy starts from what this build composes (whether or not the committed files are current)
    expect((await runScript(compose, [])).code).toBe(0);
    const fresh = new Map(readdirSync(schemaDir).map((name) => [name, readFileSync(join(schemaDir, name), 'utf8')]));
    expect(viewerType()).toBe('    prefix: string,\n    name: string,\n    plan: PlanCode,\n    role: ApiKeyRole\n  ');

    // one character of a description, a trailing blank line, a deleted subgraph SDL
    const football = join(schemaDir, 'football.graphql');
    writeFileSync(football, readFileSync(football, 'utf8').replace('The competitions in the data set.', 'The competitions in the data set!'));
    appendFileSync(join(schemaDir, 'supergraph.graphql'), '\n');
    unlinkSync(join(schemaDir, 'access.graphql'));
    // and an operation that no longer selects the key's prefix
    const serviceInfo = join(operations, 'ServiceInfo.graphql');
    writeFileSync(serviceInfo, readFileSync(serviceInfo, 'utf8').replace('    prefix\n', ''));
    let res = await runScript(compose, ['--check']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      'Stale generated files: schema/football.graphql, schema/access.graphql, schema/supergraph.graphql, rest-adapter/predictions/operations/types.generated.ts. Run `npm run compose` and commit the result.\n',
    );

    res = await runScript(compose, []);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^Wrote schema\/football\.graphql, schema\/access\.graphql, .*schema\/supergraph\.graphql, schema\/supergraph\.finance\.graphql, .*rest-adapter\/finance\/operations\/Readiness\.graphql, rest-adapter\/finance\/operations\/types\.generated\.ts, .*\.\n$/,
    );
    expect((await runScript(compose, ['--check'])).code).toBe(0);
    for (const [name, content] of fresh) expect(readFileSync(join(schemaDir, name), 'utf8')).toBe(content);
    expect(viewerType()).toBe('    name: string,\n    plan: PlanCode,\n    role: ApiKeyRole\n  ');
  });
});

describe('composeSupergraph', () => {
  it('composes two compatible subgraphs', () => {
    const sdl = composeSupergraph([
      subgraph('teams', 'type Query { team(id: ID!): Team } type Team @key(fields: "id") { id: ID! name: String! }'),
      subgraph('ratings', 'type Team @key(fields: "id") { id: ID! rating: Float! }'),
    ]);
    expect(sdl).toContain('join__graph(name: "teams", url: "http://teams:4000/graphql")');
    expect(sdl).toMatch(/type Team\s+@join__type\(graph: RATINGS, key: "id"\)\s+@join__type\(graph: TEAMS, key: "id"\)/);
  });

  it('with a cache folder: composes once per set of inputs, reads the same supergraph back, and keeps no failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchday-composition-'));
    try {
      const teams = subgraph('teams', 'type Query { team(id: ID!): Team } type Team @key(fields: "id") { id: ID! name: String! }');
      const ratings = subgraph('ratings', 'type Team @key(fields: "id") { id: ID! rating: Float! }');
      const first = composeSupergraph([teams, ratings], dir);
      expect(readdirSync(dir)).toHaveLength(1);
      expect(composeSupergraph([teams, ratings], dir)).toBe(first);
      expect(composeSupergraph([teams, ratings])).toBe(first);
      // other inputs, another entry; a failed composition leaves none
      composeSupergraph([teams], dir);
      expect(readdirSync(dir)).toHaveLength(2);
      expect(() => composeSupergraph([subgraph('a', 'type Query { x: String }'), subgraph('b', 'type Query { x: String }')], dir)).toThrow(CompositionError);
      expect(readdirSync(dir)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a field two subgraphs both resolve without @shareable readably, with its error code', () => {
    const compose = () =>
      composeSupergraph([subgraph('football', 'type Query { nextMatch: String }'), subgraph('predictions', 'type Query { nextMatch: String }')]);
    expect(compose).toThrow(CompositionError);
    let message = '';
    try {
      compose();
    } catch (err) {
      message = (err as Error).message;
    }
    const [head, ...lines] = message.split('\n');
    expect(head).toBe('Supergraph composition failed:');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^ {2}- \[INVALID_FIELD_SHARING\] Non-shareable field "Query\.nextMatch" is resolved from multiple subgraphs: it is resolved from subgraphs "football" and "predictions"/,
    );
  });

  it('lists every error, one per line, each with its code', () => {
    let message = '';
    try {
      composeSupergraph([
        subgraph('a', 'type Query { team: Team } type Team @key(fields: "id") { id: ID! founded: Int! @shareable }'),
        subgraph('b', 'type Query { other: Team @shareable } type Team @key(fields: "id") { id: ID! founded: String! @shareable }'),
        subgraph('c', 'type Query { other: Team @shareable team: Team } type Team @key(fields: "id") { id: ID! }'),
      ]);
    } catch (err) {
      expect(err).toBeInstanceOf(CompositionError);
      message = (err as Error).message;
    }
    const lines = message.split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^ {2}- \[[A-Z_]+\] \S/);
    const codes = lines.map((l) => /\[([A-Z_]+)\]/.exec(l)![1]);
    expect(codes).toEqual(expect.arrayContaining(['FIELD_TYPE_MISMATCH', 'INVALID_FIELD_SHARING']));
    expect(message).toContain('"Team.founded"');
    expect(message).toContain('"Query.team"');
  });
});

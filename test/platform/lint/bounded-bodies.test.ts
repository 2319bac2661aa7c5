import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../../lib/paths';

/**
 * Every body read from outside is counted while it streams and cut at its limit. This finds
 * every site of the class in the server code (lib, subgraphs, gateway, rest-adapter, bot, bin) — a
 * file that calls fetch(), a node:http(s) client, or reads a request stream by hand — and holds it to
 * lib/bounded-body.ts (readBytes / readText / readJson, byteLimit): a new site is covered without
 * editing this test. A fetch Response's text(), json(), arrayBuffer(), blob() and formData() read the
 * whole body before its size is known, so they may appear only at the sites listed here with why.
 */

const ROOTS = ['lib', 'subgraphs', 'gateway', 'rest-adapter', 'bot', 'bin'];

/** Sites that read whole Responses of our own services (not from outside), or run in the browser, with why. */
const NOT_FROM_OUTSIDE: Record<string, string> = {
  'lib/supergraph-client.ts': "a subgraph's call to the gateway of its own system",
  'lib/probes.ts': "the process's own /readyz",
  'gateway/remote-datasource.ts': 'the gateway reading the subgraphs of its own system',
  'rest-adapter/core/executor.ts': 'the REST adapter reading the gateway of its own system',
  'bot/gateway-client.ts': 'the bot reading the gateway of its own system',
  'rest-adapter/registry/workspace/licences.ts': "browser code of a workspace page (a script the page ships), reading this server's answer",
  'rest-adapter/finance/admin/logo.ts': "browser code of the console's branding page (the upload's script), reading this node's answer",
  // the football feed client is its own engineer's: its byte bound is tested beside it
  'subgraphs/predictions/football/store/feed-client.ts': 'the football feed client, bounded by its own streaming reader',
};

/** node:http(s) clients and hand-written request readers, each counting the bytes it reads (checked below). */
const COUNTING_READERS: Record<string, RegExp> = {
  'subgraphs/registry/licensing/safe-fetch.ts': /size > opts\.maxBytes/,
  'subgraphs/finance/investing/sandbox/servers.ts': /size > SANDBOX_BODY_MAX_BYTES/,
  'subgraphs/predictions/access/mailbox.ts': /size > MAX_MESSAGE_BYTES/,
};

/** Streams read by hand that do not come from outside: the output of a child process this system started. */
const LOCAL_STREAMS: Record<string, string> = {
  'subgraphs/registry/licensing/container-engine.ts': 'the output of podman/docker, started by this process',
  'lib/embedded-postgres.ts': 'the output of the embedded PostgreSQL, started by this process',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = ROOTS.flatMap((r) => sources(join(projectRoot(), r))).map((path) => ({
  path: relative(projectRoot(), path),
  text: readFileSync(path, 'utf8'),
}));

const WHOLE_READ = /\.(?:text|json|arrayBuffer|blob|formData)\(\)/;
const fetchers = files.filter((f) => /\bfetch\(/.test(f.text));
const rawReaders = files.filter((f) => /^import (?!type)[^;]* from 'node:https?'/m.test(f.text) && /\b(?:client|https?)\.(?:request|get)\(/.test(f.text));
const handReaders = files.filter((f) => !rawReaders.includes(f) && /\.on\('data'/.test(f.text));

it('finds the sites (the class is not empty: the scan itself works)', () => {
  expect(fetchers.map((f) => f.path)).toEqual(
    expect.arrayContaining(['subgraphs/finance/kernel/provider-http.ts', 'subgraphs/finance/node/domain/assistant.ts']),
  );
  expect(rawReaders.map((f) => f.path)).toContain('subgraphs/registry/licensing/safe-fetch.ts');
});

describe.each(fetchers.map((f) => [f.path, f] as const))('%s (calls fetch)', (path, file) => {
  it('reads no Response whole: its bodies go through lib/bounded-body.ts', () => {
    if (NOT_FROM_OUTSIDE[path]) return;
    const lines = file.text.split('\n').filter((l) => WHOLE_READ.test(l) && !/JSON\.stringify|^\s*(?:\/\/|\*)/.test(l));
    expect(lines).toEqual([]);
  });
});

describe.each([...rawReaders, ...handReaders].map((f) => [f.path, f] as const))('%s (reads a stream by hand)', (path, file) => {
  it('counts the bytes and stops at a limit', () => {
    if (LOCAL_STREAMS[path]) return;
    expect(COUNTING_READERS[path]).toBeDefined();
    expect(file.text).toMatch(COUNTING_READERS[path]);
  });
});

it('every binary upload route streams (never held whole) through a byte limit, but the presigned object PUT', () => {
  // consumes: 'binary' leaves the body to the route: the KYC document and the logo are counted (byteLimit, 413 past their maximum);
  // the presigned object PUT (registry) streams to disk as it comes, authorised by a link an administrator signed
  const STREAMS_TO_DISK = 'rest-adapter/registry/routes.ts';
  const binary = files.filter((f) => f.path.startsWith('rest-adapter/') && /consumes: 'binary'/.test(f.text));
  expect(binary.map((f) => f.path)).toEqual(expect.arrayContaining(['rest-adapter/finance/routes/kyc.ts', STREAMS_TO_DISK]));
  for (const f of binary.filter((b) => b.path !== STREAMS_TO_DISK)) expect([f.path, /byteLimit\(/.test(f.text)]).toEqual([f.path, true]);
});

it('the list of exceptions names only files that exist and still call fetch', () => {
  for (const path of Object.keys(NOT_FROM_OUTSIDE)) expect(fetchers.map((f) => f.path)).toContain(path);
});

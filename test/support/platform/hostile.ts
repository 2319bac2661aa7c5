import { Supergraph } from '@apollo/federation-internals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { z } from 'zod';
import { projectRoot } from '../../../lib/paths';
import type { Route as SurfaceRoute } from '../../../rest-adapter/core/route';

/** A route of any surface (each surface names its own security schemes). */
type Route = SurfaceRoute<string>;
import type { Surface } from '../../../rest-adapter/core/surface';

/**
 * Hostile requests, generated from what the system declares: every route of every REST surface
 * (rest-adapter/surfaces.ts: a new surface joins by being there) and every root field of the
 * supergraph. Each case is a plain HTTP request; the suite sends them all and requires a 4xx or 2xx,
 * never a 5xx, a hang or a stack trace.
 */
export interface HostileCase {
  name: string;
  url: string;
  init: RequestInit;
}

// ---- values a careless parser trips over

/** Strings: control characters, invalid Unicode, invisible text, direction overrides, very long, injection-shaped. */
export const HOSTILE_STRINGS: Record<string, string> = {
  empty: '',
  blank: '   ',
  nul: 'a\u0000b',
  controls: '\u0001\u001b[31m\u007f\u0085',
  'lone surrogate': '\ud800x',
  'zero-width only': '\u200b\u200b\u200b',
  'zero-width joiners': '\u200d\u2060\ufeff',
  'rtl override': '\u202eabc\u202c',
  combining: 'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301',
  emoji: '👨‍👩‍👧‍👦🏴‍☠️',
  astral: '𝕳𝖊𝖑𝖑𝖔 𐍈',
  'hangul filler': '\u3164\u115f',
  long: 'x'.repeat(20_000),
  'sql-shaped': "' OR 1=1; DROP TABLE predictions.prediction; --",
  'html-shaped': '<script>alert(1)</script><img src=x onerror=alert(1)>',
  'path-shaped': '../../../../etc/passwd',
  'format-shaped': '%s%n%x{{7*7}}${7*7}',
};

/** Numbers at and past every boundary a handler might assume. */
export const HOSTILE_NUMBERS: Record<string, unknown> = {
  zero: 0,
  negative: -1,
  fraction: 1.5,
  'int32 max + 1': 2147483648,
  'int32 min - 1': -2147483649,
  // 2^53 + 1, which a double cannot hold (it arrives as 2^53)
  'beyond safe integers': 2 ** 53 + 1,
  huge: 1e308,
  'numeric string': '12',
};

/** Query-string spellings of numbers a person would not write. */
const HOSTILE_NUMBER_TEXT = ['0x10', '%205', '5%20', '1e3', '+5', '-0', 'Infinity', 'NaN', '9'.repeat(400), '%00', '5%00', '１２'];

/** Raw bytes that are not UTF-8 (or are UTF-8 spelled wrong). */
const BAD_BYTES: Record<string, Buffer> = {
  'invalid UTF-8': Buffer.from([0xff, 0xfe, 0xfd]),
  'overlong UTF-8': Buffer.from([0xc0, 0xaf]),
  'UTF-8 surrogate': Buffer.from([0xed, 0xa0, 0x80]),
  'five-byte sequence': Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  'truncated sequence': Buffer.from([0xe2, 0x82]),
};

/** Percent-encodings that do not decode, or decode to something unwelcome. */
const BAD_ESCAPES = ['%ZZ', '%', '%E2%82', '%C0%AF', '%FF', '%00', '%ED%A0%80', '%2e%2e%2f', '%u202e'];

/** Lone surrogates cannot be percent-encoded: the query string gets U+FFFD in their place. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

// ---- REST surfaces

/** A path with every `:param` filled: a plausible value, or the given raw (already encoded) text. */
function fillPath(route: Route, raw?: string): string {
  return route.path.replace(/:([A-Za-z_]+)/g, () => raw ?? randomUUID());
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: unknown[] };
const jsonSchema = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;

/**
 * Which field of a route each hostile value goes to. Every field with every value was some 77,000
 * requests per run (hostile-input.test.ts took 436 s of CI's 2,700); now each run sends every value
 * once per route (query string and body alike) and every field at least one, and the pairing turns
 * with HOSTILE_ROTATION (a random one per run unless it is set; the test names it), so that runs
 * together send every pair. Each case's name says its field and value.
 */
export const HOSTILE_ROTATION = Number.parseInt(process.env.HOSTILE_ROTATION ?? '', 10) || 1 + Math.floor(Math.random() * 1_000_000);

function spread<V>(fields: readonly string[], values: readonly V[], visit: (field: string, value: V) => void): void {
  for (let i = 0; i < Math.max(fields.length, values.length); i++) visit(fields[(i + HOSTILE_ROTATION) % fields.length], values[i % values.length]);
}

/**
 * How many of the cases that only the core reads (an unknown query parameter's value, a garbled
 * credential) one route gets; the routes of a surface take them in turn, so a surface of at least
 * values ÷ CORE_SLICE routes sends every one each run (and each route meets a different few per run).
 */
const CORE_SLICE = 6;

function turn<V>(values: readonly V[], routeIndex: number): V[] {
  if (values.length <= CORE_SLICE) return [...values];
  const first = (routeIndex * CORE_SLICE + HOSTILE_ROTATION) % values.length;
  return Array.from({ length: CORE_SLICE }, (_, i) => values[(first + i) % values.length]);
}

/** A value of the right shape for a JSON schema (to surround one hostile field with valid ones). */
function plausible(s: JsonSchema | undefined): unknown {
  if (!s) return 'x';
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object') return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, plausible(v)]));
  if (type === 'array') return [plausible(s.items)];
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  return 'plausible text for a field';
}

/** What a client may put where the route expects a value of this schema: every wrong type, every odd string and number. */
function hostileValues(): [string, unknown][] {
  return [
    ...Object.entries(HOSTILE_STRINGS),
    ...Object.entries(HOSTILE_NUMBERS),
    ['null', null],
    ['true', true],
    ['array', ['a', 1, null]],
    ['object', { nested: { deeper: [1, 2, 3] } }],
    ['huge array', Array.from({ length: 5_000 }, (_, i) => i)],
  ];
}

/** 50 MB of spaces, gzipped (≈ 50 kB): made once, not per route (filling and compressing 50 MB took ~0.2 s each time). */
let bomb: Buffer | undefined;
const gzipBomb = () => (bomb ??= gzipSync(Buffer.alloc(50 * 1024 * 1024, 32)));

function bodyCases(route: Route, base: string, headers: Record<string, string>): HostileCase[] {
  const url = `${base}${fillPath(route)}`;
  const cases: HostileCase[] = [];
  const send = (name: string, body: RequestInit['body'], contentType?: string, extra: Record<string, string> = {}) =>
    cases.push({
      name: `${route.method} ${route.path} ${name}`,
      url,
      init: { method: route.method, headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}), ...extra }, body },
    });
  const consumes = route.consumes ?? 'json';
  const type = { json: 'application/json', form: 'application/x-www-form-urlencoded', text: 'message/rfc822', binary: 'application/octet-stream' }[consumes];
  const schema = route.body ? jsonSchema(route.body) : undefined;
  const fields = Object.keys(schema?.properties ?? {});

  // bodies that do not parse, or parse into something no handler expects
  send('malformed JSON', '{"a": ', 'application/json');
  send('deeply nested arrays', deepArray(50_000), 'application/json');
  send('deeply nested objects', deepObject(20_000), 'application/json');
  send('JSON scalar', '12', 'application/json');
  send('JSON null', 'null', 'application/json');
  send('JSON array', '[1,2,3]', 'application/json');
  send('__proto__ key', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}', 'application/json');
  send('oversized', JSON.stringify({ x: 'y'.repeat(400 * 1024) }), 'application/json');
  send('empty with JSON type', '', 'application/json');
  send('wrong content type', 'a=1', 'text/csv');
  send('no content type', 'a=1');
  send('odd charset', '{"a":1}', 'application/json; charset=latin1');
  send('unknown charset', '{"a":1}', 'application/json; charset=x-klingon');
  send('UTF-16 body', Buffer.from('\ufeff{"a":1}', 'utf16le'), `${type}; charset=utf-16`);
  send('BOM then JSON', '\ufeff{"a":1}', type);
  for (const encoding of ['gzip', 'br', 'deflate', 'compress', 'gzip, br'])
    send(`Content-Encoding ${encoding}, not compressed`, '{"a":1}', type, { 'content-encoding': encoding });
  send('gzip bomb', gzipBomb(), type, { 'content-encoding': 'gzip' });
  for (const [name, bytes] of Object.entries(BAD_BYTES)) {
    const body =
      consumes === 'json'
        ? Buffer.concat([Buffer.from(`{"${fields[0] ?? 'a'}":"`), bytes, Buffer.from('"}')])
        : consumes === 'form'
          ? Buffer.concat([Buffer.from(`${fields[0] ?? 'a'}=`), bytes])
          : Buffer.concat([Buffer.from('Subject: API Access Request\r\n\r\n'), bytes]);
    send(name, body, type);
  }
  if (consumes === 'form') for (const escape of BAD_ESCAPES) send(`form escape ${escape}`, `${fields[0] ?? 'a'}=${escape}&${fields[1] ?? 'b'}=x`, type);
  if (consumes === 'text') {
    for (const [name, value] of Object.entries(HOSTILE_STRINGS)) send(`message: ${name}`, `Subject: ${value}\r\nFrom: ${value}\r\n\r\n${value}`, type);
    send('message: huge header', `Subject: API Access Request\r\nX-Long: ${'a'.repeat(90_000)}\r\n\r\nbody`, type);
  }
  // every field with every wrong value, the others plausible
  if (consumes !== 'text') {
    const values = consumes === 'json' ? hostileValues() : hostileValues().filter(([, value]) => typeof value === 'string' || typeof value === 'number');
    spread(fields.length ? fields : ['a'], values, (field, [name, value]) => {
      const body = { ...(plausible(schema) as object), [field]: value };
      send(`${field}: ${name}`, consumes === 'json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(), type);
    });
    if (consumes === 'json') send('extra field', JSON.stringify({ ...(plausible(schema) as object), unexpected: 1 }), type);
  }
  return cases;
}

function queryCases(route: Route, index: number, base: string, headers: Record<string, string>): HostileCase[] {
  const path = `${base}${fillPath(route)}`;
  const schema = route.query ? jsonSchema(route.query) : undefined;
  const declared = Object.keys(schema?.properties ?? {});
  const fields = declared.concat('unexpected');
  const cases: HostileCase[] = [];
  const get = (name: string, query: string) =>
    cases.push({ name: `${route.method} ${route.path}?${name}`, url: `${path}?${query}`, init: { method: route.method, headers } });
  const values: [name: string, encoded: string][] = [
    ...HOSTILE_NUMBER_TEXT.map((text): [string, string] => [text.slice(0, 12), text]),
    ...BAD_ESCAPES.map((escape): [string, string] => [escape, escape]),
    ...Object.entries(HOSTILE_STRINGS).map(([name, value]): [string, string] => [`<${name}>`, encodeURIComponent(wellFormed(value))]),
  ];
  // a route without parameters of its own: an unknown one meets only the core's parsing, the same for every route,
  // so each such route gets its turn of CORE_SLICE values and the surface's routes together send them all
  const slots = declared.length ? values : turn(values, index);
  spread(fields, slots, (field, [name, encoded]) => get(`${field}=${name}`, `${field}=${encoded}`));
  for (const field of fields) {
    get(`${field} repeated`, `${field}=1&${field}=2&${field}=3`);
    get(`${field} bracketed`, `${field}[]=1&${field}[a]=2`);
    get(`${field} without value`, field);
  }
  get('thousand parameters', Array.from({ length: 1_000 }, (_, i) => `p${i}=${i}`).join('&'));
  return cases;
}

function pathCases(route: Route, base: string, headers: Record<string, string>): HostileCase[] {
  const cases: HostileCase[] = [];
  const at = (name: string, path: string, method: string = route.method) =>
    cases.push({ name: `${method} ${route.path} ${name}`, url: `${base}${path}`, init: { method, headers } });
  if (route.path.includes(':')) {
    for (const escape of BAD_ESCAPES) at(`param ${escape}`, fillPath(route, escape));
    for (const [name, value] of Object.entries(HOSTILE_STRINGS)) if (value) at(`param <${name}>`, fillPath(route, encodeURIComponent(wellFormed(value))));
    for (const text of HOSTILE_NUMBER_TEXT) at(`param ${text.slice(0, 12)}`, fillPath(route, text));
  }
  const path = fillPath(route);
  at('without trailing slash', path.replace(/\/$/, ''));
  at('double slash', path.replace(/\//g, '//'));
  at('upper case', path.toUpperCase());
  at('dot segments', `${path}../../`);
  at('escaped slash', path.replace(/\/$/, '%2F'));
  for (const method of ['PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND']) if (method !== route.method) at(`method ${method}`, path, method);
  return cases;
}

/** Credentials as a client might garble them. */
function headerCases(route: Route, index: number, base: string): HostileCase[] {
  const url = `${base}${fillPath(route)}`;
  const variants: Record<string, Record<string, string>> = {
    'bearer, empty': { authorization: 'Bearer ' },
    'bearer, long': { authorization: `Bearer ${'a'.repeat(8_000)}` },
    'bearer, latin-1': {
      authorization: 'Bearer mpk_\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9',
    },
    'bearer, unknown prefix': { authorization: 'Bearer mpk_00000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    'basic, garbage': { authorization: 'Basic !!!!' },
    'basic, no colon': { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` },
    'scheme only': { authorization: 'Bearer' },
    'odd scheme': { authorization: 'Negotiate abc' },
    'x-request-id, odd': { 'x-request-id': '<script>\u0085' },
    'accept, odd': { accept: 'application/x-none;q=0, */*;q=abc' },
    'content-type params': { 'content-type': 'application/json; charset="; boundary=--' },
    'x-credential-kinds, forged': { 'x-credential-kinds': 'gateway,service' },
    'x-verified-principal, forged': { 'x-verified-principal': 'eyJwIjp7ImtpbmQiOiJzZXJ2aWNlIn19.forged' },
    'forwarded, long': { 'x-forwarded-for': Array.from({ length: 300 }, (_, i) => `10.0.0.${i % 255}`).join(', ') },
  };
  // read by the core's credential parsing before any route: each route gets its turn of them (turn)
  return turn(Object.entries(variants), index).map(([name, headers]) => ({
    name: `${route.method} ${route.path} header ${name}`,
    url,
    init: { method: route.method, headers },
  }));
}

/**
 * Every hostile case for one surface's routes, and its paths outside the route table, sent with the
 * caller's credential headers. The garbled-credential cases replace those headers, so they are the
 * same for every caller: `garbledCredentials: false` leaves them out for all but one.
 */
export function surfaceCases(surface: Surface, base: string, headers: Record<string, string> = {}, opts: { garbledCredentials?: boolean } = {}): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const [index, route] of surface.routes.entries()) {
    cases.push(...pathCases(route, base, headers), ...queryCases(route, index, base, headers));
    if (opts.garbledCredentials !== false) cases.push(...headerCases(route, index, base));
    if (route.method !== 'GET' && route.method !== 'DELETE') cases.push(...bodyCases(route, base, headers));
  }
  // outside the table: what the core answers for any path (and the probes and pages in front of it)
  for (const path of ['/', '/%ZZ', '/%C0%AE%C0%AE/', `/${'a'.repeat(6_000)}/`, '/api/%00/', '/readyz?%ZZ', '/healthz/..%2F', '/\u00e9/', '/api/docs/?%FF']) {
    cases.push({ name: `GET ${path.slice(0, 40)}`, url: `${base}${path}`, init: { method: 'GET', headers } });
  }
  return cases;
}

// ---- the supergraph

export function apiSchema(): GraphQLSchema {
  return Supergraph.build(readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8'))
    .apiSchema()
    .toGraphQLJSSchema();
}

/** A JSON value for an input type under one hostile profile. */
type Profile = 'boundary' | 'wrong type' | 'text' | 'null' | 'deep' | 'large list';

function inputValue(type: GraphQLInputType, profile: Profile, depth = 0): unknown {
  if (profile === 'null') return null;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    // one large list per value: a list nested in a large list's items stays short (10,000² items would not fit a string)
    const item = inputValue(nullable.ofType, profile === 'large list' ? 'boundary' : profile, depth + 1);
    return profile === 'large list' ? Array.from({ length: 10_000 }, () => item) : [item];
  }
  const named = getNamedType(type);
  if (isInputObjectType(named)) {
    if (depth > 4) return {};
    return Object.fromEntries(Object.values(named.getFields()).map((f) => [f.name, inputValue(f.type, profile, depth + 1)]));
  }
  if (isEnumType(named)) return profile === 'wrong type' ? 42 : profile === 'text' ? HOSTILE_STRINGS['zero-width only'] : 'NO_SUCH_VALUE';
  const scalar = isScalarType(named) ? named.name : 'String';
  if (profile === 'wrong type') return scalar === 'String' || scalar === 'ID' ? { an: 'object' } : 'text';
  if (profile === 'deep') return scalar === 'JSON' ? JSON.parse(deepObject(2_000)) : HOSTILE_STRINGS.long;
  if (profile === 'text')
    return scalar === 'Int' || scalar === 'Float' ? 'NaN' : HOSTILE_STRINGS.nul + HOSTILE_STRINGS['lone surrogate'] + HOSTILE_STRINGS['rtl override'];
  // boundary
  if (scalar === 'Int') return 2147483647;
  if (scalar === 'Float') return 1e308;
  if (scalar === 'Boolean') return true;
  if (scalar === 'DateTimeISO') return '+275760-09-13T00:00:00.000Z';
  if (scalar === 'JSON') return { matches: [{ round: 'x'.repeat(1000), date: '9999-99-99', team1: '', team2: HOSTILE_STRINGS.nul, score: { ft: [-1, 1e9] } }] };
  return HOSTILE_STRINGS['zero-width only'];
}

/** `{ __typename }` or the first scalar fields: enough to make the field run. */
function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const scalars = Object.values(named.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) && !f.args.some((a) => isNonNullType(a.type)))
    .slice(0, 3)
    .map((f) => f.name);
  return `{ __typename ${scalars.join(' ')} }`;
}

const PROFILES: Profile[] = ['boundary', 'wrong type', 'text', 'null', 'deep', 'large list'];

/**
 * Every root field of the supergraph with every hostile profile of arguments, as variables. `share`:
 * callers that mostly stop at the same refusal (no key, a client's key) split the cases between them,
 * each taking its turn of them (the pairing turns with HOSTILE_ROTATION).
 */
export function operationCases(schema: GraphQLSchema, gateway: string, credential?: string, share?: { index: number; of: number }): HostileCase[] {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(credential ? { authorization: `Bearer ${credential}` } : {}) };
  const cases: HostileCase[] = [];
  let serial = 0;
  for (const [kind, root] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      for (const profile of field.args.length ? PROFILES : (['boundary'] as Profile[])) {
        if (share && (serial++ + HOSTILE_ROTATION) % share.of !== share.index) continue;
        const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${kind}${defs ? ` (${defs})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selection(field)} }`;
        const variables = Object.fromEntries(field.args.map((a) => [a.name, inputValue(a.type, profile)]));
        cases.push({
          name: `${kind} ${field.name} (${profile})`,
          url: `${gateway}/graphql`,
          init: { method: 'POST', headers, body: JSON.stringify({ query, variables }) },
        });
      }
    }
  }
  return cases;
}

/** Documents and bodies no operation should be: for the gateway's own parsing and limits. */
export function documentCases(gateway: string, credential?: string): HostileCase[] {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(credential ? { authorization: `Bearer ${credential}` } : {}) };
  const post = (name: string, body: RequestInit['body'], extra: Record<string, string> = {}) => ({
    name: `gateway ${name}`,
    url: `${gateway}/graphql`,
    init: { method: 'POST', headers: { ...headers, ...extra }, body },
  });
  const doc = (name: string, query: unknown, variables?: unknown) => post(name, JSON.stringify({ query, variables }));
  return [
    post('malformed JSON', '{"query": '),
    post('JSON array (a batch)', JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }])),
    post('deeply nested JSON', deepArray(100_000)),
    post('oversized body', JSON.stringify({ query: `{ __typename } # ${'x'.repeat(400 * 1024)}` })),
    post('not compressed', '{"query":"{ __typename }"}', { 'content-encoding': 'gzip' }),
    post('invalid UTF-8', Buffer.concat([Buffer.from('{"query":"{ __typename }","variables":{"a":"'), BAD_BYTES['invalid UTF-8'], Buffer.from('"}}')])),
    post('form body', 'query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' }),
    doc('query not a string', 42),
    doc('variables not an object', '{ __typename }', 'x'),
    doc('empty document', ''),
    doc('syntax error', '{ competitions { '),
    doc('many tokens', `{ ${'__typename '.repeat(50_000)} }`),
    doc('deep selection', `{ ${'competitions { '.repeat(400)}code${' }'.repeat(400)} }`),
    doc('many aliases', `{ ${Array.from({ length: 2_400 }, (_, i) => `a${i}: predict(home: "Arsenal", away: "Chelsea") { confidence }`).join(' ')} }`),
    doc('aliased introspection', `{ ${Array.from({ length: 200 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`),
    doc(
      'cyclic introspection',
      '{ __type(name: "Query") { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } }',
    ),
    doc('many directives', `{ __typename ${'@skip(if: false) '.repeat(500)} }`),
    doc('fragment cycle', '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
    doc('many operations', Array.from({ length: 300 }, (_, i) => `query Q${i} { __typename }`).join(' ')),
    doc('variable default bypassing cost', 'query ($n: Int = 200) { matches(first: $n) { nodes { id homeTeam { name } awayTeam { name } } } }'),
    doc('unknown variable type', 'query ($a: NoSuchType) { __typename }', { a: 1 }),
    doc('subscription', 'subscription { __typename }'),
    doc('string with NUL', '{ predict(home: "\\u0000", away: "\\ud800") { confidence } }'),
    { name: 'gateway GET with query', url: `${gateway}/graphql?query=${encodeURIComponent('{ __typename }')}`, init: { method: 'GET', headers } },
    {
      name: 'gateway GET malformed query string',
      url: `${gateway}/graphql?query=%ZZ&variables=%7B`,
      init: { method: 'GET', headers: { ...headers, 'apollo-require-preflight': 'true' } },
    },
    { name: 'gateway unknown path', url: `${gateway}/%ZZ`, init: { method: 'GET', headers } },
    { name: 'gateway IDE, odd accept', url: `${gateway}/graphql`, init: { method: 'GET', headers: { accept: 'text/html;q=abc' } } },
  ];
}

// ---- verdicts

/** A stack trace, a file path or an internal detail in an answer. */
/** A stack frame (`at fn (file:line:col)`), a path or an internal error name: never in an answer (prose such as "price at checkout (…)" is fine). */
export const LEAK = /\bat [\w.<>]+ \([^()]*:\d+:\d+\)|node_modules|\/work\/|\.(ts|js):\d+|ECONNREFUSED|QueryFailedError|stacktrace/;

export interface Outcome {
  name: string;
  status?: number;
  ms: number;
  failure?: string;
}

/**
 * Sends every case (a few at a time); each must answer within `timeoutMs` with a status below 500 and
 * no leak. The requests go out from a worker thread (test/support/platform/hostile-sender.js): the services under
 * test run in this thread, and the sweep's tens of thousands of requests then use both cores.
 */
export function sendAll(cases: HostileCase[], opts: { concurrency?: number; timeoutMs?: number } = {}): Promise<Outcome[]> {
  const worker = new Worker(join(__dirname, 'hostile-sender.js'), {
    workerData: { cases, concurrency: opts.concurrency ?? 6, timeoutMs: opts.timeoutMs ?? 20_000, leak: LEAK.source },
  });
  return new Promise<Outcome[]>((resolve, reject) => {
    worker.once('message', (m: { outcomes?: Outcome[]; error?: string }) =>
      m.outcomes ? resolve(m.outcomes) : reject(new Error(`the hostile sender failed: ${m.error}`)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the hostile sender exited (code ${code}) before answering`)));
  }).finally(() => void worker.terminate());
}

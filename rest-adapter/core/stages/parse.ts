import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { credentialCarriers } from '../../../lib/credentials';
import { keepRawBody } from '../../../lib/http';
import { IDEMPOTENCY_KEY } from '../../../lib/idempotency';
import { cleanStrings, textProblem } from '../../../lib/text';
import { isPage, type Route } from '../route';
import type { Exchange, Outcome, Problem, Stage } from './exchange';

/**
 * The parse stages, one place for every route of every surface. `readBody`: the body comes in the
 * route's format and parses (a binary body is the route's own to stream). `validate`: the path names
 * something (else 404 at once), the query string and the body pass the route's schemas, an
 * Idempotency-Key is well formed. Problems are recorded on the exchange, not answered: the
 * credential and gate stages speak first (see Exchange.problem).
 */
export const readBody: Stage = async (x) => {
  x.problem = await bodyReadProblem(x);
  return undefined;
};

export const validate: Stage = (x) => {
  const { req, route } = x;
  // a path segment with control characters or invalid Unicode names nothing (PostgreSQL cannot even compare NUL)
  if (Object.values(req.params as Record<string, string>).some((v) => textProblem(v))) return notFound;
  if (route.params) {
    const parsed = route.params.safeParse(req.params);
    if (!parsed.success) return notFound;
    x.input.params = parsed.data as Record<string, string>;
  }
  x.problem ??= idempotencyProblem(x);
  if (x.problem) return undefined;
  const carriers = credentialCarriers(x.credentials).query;
  const unknown = unknownQueryFields(route, req.query as Record<string, unknown>, carriers);
  if (unknown) return void (x.problem = { kind: 'invalid', message: 'Unknown query parameters.', fields: unknown });
  if (route.query) {
    const part = parsePart(route.query, isPage(route) ? chosenOnly(req.query as Record<string, unknown>) : req.query, 'query', true);
    if (part.fields) return void (x.problem = { kind: 'invalid', message: 'Invalid query parameters.', fields: part.fields });
    x.input.query = part.data as Record<string, unknown>;
  }
  if (route.body && route.consumes !== 'binary') {
    const part = parsePart(route.body, req.body, 'body', route.consumes === 'form');
    if (part.fields) return void (x.problem = { kind: 'invalid', message: 'Invalid request body.', fields: part.fields });
    x.input.body = part.data;
  }
  return undefined;
};

/**
 * A page's query as a person chose it: a GET form sends every field, and a field left empty (a search
 * not typed, a select left on "All") means "not chosen", so it is absent to the page's schema (never a
 * 400, never a filter on ""). API routes keep their query as sent.
 */
export function chosenOnly(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query ?? {}).filter(([, value]) => value !== ''));
}

/**
 * An API route takes the query parameters its schema names and no others: `limit[$ne]=1` or a typo
 * (`lmit=5`) is refused with 400 rather than silently ignored, as bodies are. Pages of a browser
 * application (HTML, or left out of the API document) tolerate what links and browsers add. A
 * credential carried in the query string (a download token, a licence key) is a known parameter.
 */
export function unknownQueryFields(
  route: Pick<Route, 'query' | 'response' | 'documented'>,
  query: Record<string, unknown>,
  credentialParameters: string[] = [],
) {
  if (isPage(route)) return undefined;
  const known = new Set([...Object.keys(route.query?.shape ?? {}), ...credentialParameters]);
  const unknown = Object.keys(query ?? {}).filter((key) => !known.has(key));
  return unknown.length ? Object.fromEntries(unknown.map((key) => [key, ['Unknown query parameter.']])) : undefined;
}

const notFound: Outcome = { core: { kind: 'not_found', message: 'Not found.' } };

/** The body parsers of a surface (express's), each checking that the bytes are what they claim. */
export function bodyParsers(limit: string): Record<'json' | 'form' | 'text', RequestHandler> {
  return {
    json: express.json({ limit, strict: false, verify: verifyBody(false) }),
    form: express.urlencoded({ limit, extended: false, verify: verifyBody(true) }),
    text: express.text({ limit, type: () => true, verify: verifyBody(false) }),
  };
}

/** Reads the body in the route's format (a binary body is the route's own to stream); what went wrong, if anything. */
async function bodyReadProblem(x: Exchange): Promise<Problem | undefined> {
  const { req, res, route } = x;
  const consumes = route.consumes ?? 'json';
  // a DELETE carries a body only where its route declares one (e.g. a confirmation code)
  if (req.method === 'GET' || req.method === 'HEAD' || (req.method === 'DELETE' && !route.body) || consumes === 'binary') return undefined;
  const length = Number(req.headers['content-length'] ?? 0);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  // a body must come in the route's format (an empty body is fine: some POSTs take none)
  if ((length > 0 || chunked) && !req.is(CONTENT_TYPES[consumes])) {
    return { kind: 'unsupported_media_type', message: `Request body must be ${CONTENT_TYPES[consumes].join(' or ')}.` };
  }
  const error = await new Promise<unknown>((resolve) => x.app.parsers[consumes](req, res, resolve));
  return error ? bodyProblem(error, x.app.options.bodyLimit, req) : undefined;
}

/** What body-parser and the router call a client's mistake, as the core's error; undefined for a fault. */
export function bodyProblem(err: unknown, bodyLimit: string, req: Request): Problem | undefined {
  const e = err as { type?: string; status?: number; statusCode?: number; message?: string };
  if (e.type === 'entity.parse.failed') return { kind: 'parse_error', message: 'Malformed JSON in request body.' };
  if (e.type === 'entity.too.large') return { kind: 'payload_too_large', message: `Request body exceeds the limit of ${bodyLimit}.` };
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return { kind: 'unsupported_media_type', message: e.message ?? 'Unsupported encoding.' };
  if (e.type === 'entity.encoding.invalid') return { kind: 'parse_error', message: e.message! };
  // a body that does not decode as its Content-Encoding says, a request cut short, a parameter that does not decode
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const encoding = req.headers['content-encoding'];
    return { kind: 'parse_error', message: encoding && encoding !== 'identity' ? `Request body is not valid ${encoding} data.` : 'Malformed request.' };
  }
  return undefined;
}

/** Zod issues → {field: [messages]} (DRF's shape for validation errors). */
function fieldErrors(error: z.ZodError, where: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : where;
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** A number in a query string or form is written in decimal: `0x10`, ` 5`, `1e3` and `Infinity` are not numbers to a person. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The type under a field's wrappers (default, optional, nullable, pipe). */
function baseType(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
  while (def.innerType || def.in) def = (def.innerType ?? def.in)!._zod.def as typeof def;
  return def.type;
}

/** Fields of an object schema that take numbers from strings (`z.coerce.number()`) whose value is not a decimal. */
function numberFormatProblems(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const shape = (schema as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape || !value || typeof value !== 'object') return {};
  const problems: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(shape)) {
    const raw = (value as Record<string, unknown>)[name];
    if (typeof raw === 'string' && baseType(field) === 'number' && !DECIMAL.test(raw)) problems[name] = ['Expected a number in decimal notation.'];
  }
  return problems;
}

function mergeFields(...all: Record<string, string[]>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const fields of all) for (const [k, v] of Object.entries(fields)) (out[k] ??= []).push(...v.filter((m) => !out[k].includes(m)));
  return out;
}

/**
 * Checks and parses one part of the request (query string or body) against the route's schema: text
 * hygiene (lib/text.ts: control characters and invalid Unicode refused, invisible-only strings empty),
 * decimal numbers, then the schema. One place for every route of every surface.
 */
export function parsePart(schema: z.ZodType, raw: unknown, where: string, strictNumbers: boolean): { data?: unknown; fields?: Record<string, string[]> } {
  const cleaned = cleanStrings(raw);
  const parsed = schema.safeParse(cleaned.value);
  const fields = mergeFields(
    cleaned.problems,
    strictNumbers ? numberFormatProblems(schema, cleaned.value) : {},
    parsed.success ? {} : fieldErrors(parsed.error, where),
  );
  return Object.keys(fields).length ? { fields } : { data: parsed.data };
}

/** Whether a URL component decodes (well-formed percent-encoding of valid UTF-8). */
export function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

/** `a=1&b=%20x` decodes pair by pair (a form body, a query string). */
export const formDecodes = (text: string) => text.split('&').every((pair) => decodes(pair.replace(/\+/g, ' ')));

const bodyError = (message: string, type: string) => Object.assign(new Error(message), { status: 400, type });

/** Bodies are UTF-8 (when they say so or say nothing): invalid bytes are refused, not stored as U+FFFD. */
function verifyBody(form: boolean) {
  return (req: Request, res: Response, buf: Buffer, encoding: string) => {
    // the bytes as they came: a signed webhook's HMAC covers them, not their parsed form
    keepRawBody(req, res, buf);
    if (!/^utf-?8$/i.test(encoding)) return;
    if (!isUtf8(buf)) throw bodyError('Request body is not valid UTF-8.', 'entity.encoding.invalid');
    if (form && !formDecodes(buf.toString('utf8'))) throw bodyError('Malformed percent-encoding in the form body.', 'entity.encoding.invalid');
  };
}

const CONTENT_TYPES = { json: ['application/json'], form: ['application/x-www-form-urlencoded'], text: ['message/rfc822', 'text/plain'] };

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const IDEMPOTENCY_KEY_MESSAGE = 'An Idempotency-Key is 1 to 255 visible ASCII characters (a UUID, for example).';

/**
 * The key of an idempotent request: its Idempotency-Key header, else its X-Request-ID (a client that
 * sends a fresh X-Request-ID per logical request and repeats it on retries gets idempotency for free).
 * Undefined: neither (the request runs unremembered); null: a malformed Idempotency-Key (400). A
 * malformed X-Request-ID is no key: it is only a fallback.
 */
export function idempotencyKeyOf(req: Request): string | undefined | null {
  const explicit = req.headers['idempotency-key'];
  if (explicit !== undefined) return typeof explicit === 'string' && IDEMPOTENCY_KEY.test(explicit) ? explicit : null;
  const requestId = req.headers['x-request-id'];
  return typeof requestId === 'string' && IDEMPOTENCY_KEY.test(requestId) ? requestId : undefined;
}

/** A malformed Idempotency-Key on an idempotent route is the client's mistake (400); a good one goes on the input. */
function idempotencyProblem(x: Exchange): Problem | undefined {
  if (!x.route.idempotent) return undefined;
  const key = idempotencyKeyOf(x.req);
  if (key === null) return { kind: 'invalid', message: IDEMPOTENCY_KEY_MESSAGE, fields: { [IDEMPOTENCY_HEADER]: [IDEMPOTENCY_KEY_MESSAGE] } };
  x.input.idempotencyKey = key;
  return undefined;
}

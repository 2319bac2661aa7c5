/**
 * Text a client may send: what every REST surface (rest-adapter/core) and the gateway refuse or
 * normalise in request strings, in one place.
 */

/**
 * Control characters other than tab, line feed and carriage return (C0, DEL, C1), and UTF-16
 * surrogates that are not part of a pair (JSON can spell them: "\ud800"). PostgreSQL cannot store
 * NUL, and none of them belongs in a name, an e-mail address or a message.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const DISALLOWED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** White space and characters that render as nothing (zero-width spaces and joiners, BOM, bidi marks, fillers). */
const INVISIBLE_ONLY = /^[\s\p{Default_Ignorable_Code_Point}\p{Cf}]*$/u;

/** Why a string is refused, or undefined when it is acceptable. */
export function textProblem(value: string): string | undefined {
  return DISALLOWED.test(value) ? 'Contains control characters or invalid Unicode.' : undefined;
}

/**
 * A string that shows nothing (only white space and invisible characters such as zero-width
 * spaces) counts as empty, so "required" and minimum-length rules apply to what a reader sees.
 * Anything else is kept exactly as sent (passwords included).
 */
export const visibleOrEmpty = (value: string): string => (value !== '' && INVISIBLE_ONLY.test(value) ? '' : value);

/** No request a person writes nests deeper; deeper JSON is refused before anything walks it. */
export const MAX_NESTING = 32;

/**
 * Checks and normalises every string in a parsed request value (query parameters, a JSON or form
 * body): problems by path (`a.b.0`), and the value with invisible-only strings made empty. Nesting
 * beyond MAX_NESTING is a problem too (and is not walked).
 */
export function cleanStrings(value: unknown, path: string[] = []): { value: unknown; problems: Record<string, string[]> } {
  const problems: Record<string, string[]> = {};
  const walk = (v: unknown, at: string[]): unknown => {
    if (at.length > MAX_NESTING && v !== null && typeof v === 'object') {
      (problems[path.join('.') || 'body'] ??= []).push(`Nested more than ${MAX_NESTING} levels deep.`);
      return undefined;
    }
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) (problems[at.join('.') || 'body'] ??= []).push(problem);
      return visibleOrEmpty(v);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, String(i)]));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        const keyProblem = textProblem(k);
        if (keyProblem) (problems[[...at, k].join('.')] ??= []).push(keyProblem);
        // defineProperty: a JSON key "__proto__" stays a plain key, never the object's prototype
        Object.defineProperty(out, k, { value: walk(inner, [...at, k]), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  };
  return { value: walk(value, path), problems };
}

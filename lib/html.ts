/** Server-rendered HTML: escaping, and a tagged template that escapes every interpolation unless it is `raw(…)`. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: unknown) =>
  (typeof s === 'string' ? s : s === null || s === undefined ? '' : String(s as string | number | boolean)).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Markup that is already safe (built by `html` or escaped). */
export class Raw {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

export const raw = (s: string) => new Raw(s);

const render = (v: unknown): string =>
  v instanceof Raw ? v.value : Array.isArray(v) ? v.map(render).join('') : v === undefined || v === null || v === false ? '' : escapeHtml(v);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0];
  values.forEach((v, i) => (out += render(v) + strings[i + 1]));
  return new Raw(out);
}

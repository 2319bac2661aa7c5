import { z } from 'zod';
import { html, type Raw } from '../../lib/html';
import type { AnyRouteInput, Reply } from '../core/route';
import { table } from './kit';

/**
 * A console list: search, filters, paging and CSV export over the rows a page's operation answered.
 * The page's route takes `listQuery` (plus its filters) as its query schema; `listView` answers the
 * HTML fragment, or the CSV file when `?format=csv` (the same search and filters, every page).
 */

export interface ListColumn<R> {
  label: string;
  /** The cell as the page shows it (escaped unless `html`). */
  cell: (row: R) => unknown;
  /** The value in the CSV export (default: the cell as text); `false`: not exported (a form, a link, an image). */
  csv?: ((row: R) => string | number | boolean | null | undefined) | false;
  /** The column's distinct values (as text) become a filter named after the label (`Status` → `?status=`). */
  filter?: boolean;
}

export interface ListFilter<R> {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  /**
   * Whether a row has the value. Absent: the node already applied the filter (the page's query schema
   * names it and its operation filtered on it): shown in the toolbar and kept in every link, never applied again.
   */
  matches?: (row: R, value: string) => boolean;
}

/**
 * A list the node answers in windows (`?cursor=`): the window's rows are searched, filtered, paged
 * and exported as any list's; the pager links the node's next window (and back to the first).
 */
export interface NodeWindow {
  /** The node's cursor after this window (null: this is the last one). */
  next: string | null;
  /** The next window's link text, e.g. "Older orders →". */
  label: string;
  /** The query name of the cursor (default `cursor`). */
  param?: string;
}

export interface ListSpec<R> {
  title: string;
  /** The page's own path (links to other pages, the export). */
  path: string;
  columns: ListColumn<R>[];
  /** The texts `q` searches in (case-insensitive, every word must occur); default: every cell's text. */
  searchable?: (row: R) => (string | null | undefined)[];
  /** Filters of their own (a column's distinct values are one with `filter: true`, listed after these). */
  filters?: ListFilter<R>[];
  pageSize?: number;
  /** The CSV file's name, without extension. */
  filename: string;
  empty?: string;
  /** More links in the pager. */
  more?: { href: string; label: string }[];
  /** The node's window of a cursor-paged list. */
  window?: NodeWindow;
}

/** The query every list page accepts; a list's filters add their own names (`listQueryWith`). */
export const listQuery = z.object({
  q: z.string().max(200).optional().describe('Search: every word must occur (case-insensitive)'),
  page: z.coerce.number().int().min(1).max(100_000).optional().describe('Page number, from 1'),
  format: z.enum(['html', 'csv']).optional().describe('csv: the whole filtered list as a CSV file'),
  saved: z.string().optional(),
});

export const listQueryWith = (filters: Record<string, readonly [string, ...string[]]>) =>
  listQuery.extend(Object.fromEntries(Object.entries(filters).map(([name, values]) => [name, z.enum(values).optional()])));

/** A cell as plain text (an escaped fragment without its tags): what search, filters and the CSV export read. */
export const cellText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'value' in (v as Record<string, unknown>)) return String((v as { value: unknown }).value).replace(/<[^>]*>/g, '');
  return String(v as string);
};

/** RFC 4180 field; a leading = + - @ is prefixed with ' so that a spreadsheet never runs it as a formula. */
export function csvField(v: unknown): string {
  let s = cellText(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The columns a CSV export has (those not marked `csv: false`). */
const exported = <R>(columns: ListColumn<R>[]) => columns.filter((c) => c.csv !== false);

export function toCsv<R>(columns: ListColumn<R>[], rows: R[]): string {
  const cols = exported(columns);
  const lines = [cols.map((c) => csvField(c.label)).join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvField(typeof c.csv === 'function' ? c.csv(r) : c.cell(r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The list's filters: its own, then one per `filter: true` column (options: the column's distinct values in the rows). */
function filtersOf<R>(spec: ListSpec<R>, rows: R[]): ListFilter<R>[] {
  const own = spec.filters ?? [];
  const named = new Set(own.map((f) => f.name));
  return [
    ...own,
    ...spec.columns.flatMap((c) => {
      if (!c.filter || named.has(slug(c.label))) return [];
      const text = (r: R) => cellText(c.cell(r)).trim();
      const values = [...new Set(rows.map(text).filter(Boolean))].sort();
      return [{ name: slug(c.label), label: c.label, options: values.map((v) => ({ value: v, label: v })), matches: (r: R, v: string) => text(r) === v }];
    }),
  ];
}

function filtered<R>(spec: ListSpec<R>, filters: ListFilter<R>[], rows: R[], query: Record<string, unknown>): R[] {
  const words = (typeof query.q === 'string' ? query.q : '').toLowerCase().split(/\s+/).filter(Boolean);
  const searchable = spec.searchable ?? ((r: R) => spec.columns.map((c) => cellText(c.cell(r))));
  return rows.filter((r) => {
    for (const f of filters) {
      const value = query[f.name];
      if (f.matches && typeof value === 'string' && value && !f.matches(r, value)) return false;
    }
    if (!words.length) return true;
    const hay = searchable(r).filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

const link = (path: string, query: Record<string, unknown>, change: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...change })) if (v !== undefined && v !== '' && k !== 'saved') params.set(k, String(v as string));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
};

function toolbar<R>(spec: ListSpec<R>, filters: ListFilter<R>[], query: Record<string, unknown>): Raw {
  const q = typeof query.q === 'string' ? query.q : '';
  return html`<form class="toolbar" method="get" action="${spec.path}" role="search">
    <div><label for="id_q">Search</label><input type="search" name="q" id="id_q" value="${q}" /></div>
    ${filters.map(
      (f) =>
        html`<div>
          <label for="id_${f.name}">${f.label}</label>
          <select name="${f.name}" id="id_${f.name}">
            <option value="">All</option>
            ${f.options.map((o) => html`<option value="${o.value}" ${query[f.name] === o.value ? 'selected' : ''}>${o.label}</option>`)}
          </select>
        </div>`,
    )}
    <div><button class="default" type="submit">Filter</button></div>
    <div><a href="${link(spec.path, query, { format: 'csv', page: undefined })}">Export CSV</a></div>
  </form>`;
}

/**
 * The list's query, from the page's URL as links make it (and the page's query schema, if it has one):
 * a value that is not one of the list's (an unknown filter value, page number or format) is ignored,
 * never an error. Only the list's own names (search, page, format, filters, window) stay in its links.
 */
function queryOf<R>(spec: ListSpec<R>, filters: ListFilter<R>[], input: AnyRouteInput): Record<string, unknown> {
  const raw = { ...(input.req.query as Record<string, unknown>), ...(input.query ?? {}) } as Record<string, unknown>;
  const one = (k: string) => {
    const v = raw[k];
    return typeof v === 'string' ? v.slice(0, 200) : typeof v === 'number' ? String(v) : undefined;
  };
  const page = Number.parseInt(one('page') ?? '1', 10);
  const query: Record<string, unknown> = {
    q: one('q'),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    format: one('format') === 'csv' ? 'csv' : undefined,
  };
  for (const f of filters) query[f.name] = f.options.some((o) => o.value === one(f.name)) ? one(f.name) : undefined;
  if (spec.window) {
    const param = spec.window.param ?? 'cursor';
    query[param] = one(param) || undefined;
  }
  return query;
}

/** The pager's links to the node's windows: back to the first, on to the next (the window stays in the list's own links). */
function windowLinks<R>(spec: ListSpec<R>, query: Record<string, unknown>): { href: string; label: string }[] {
  if (!spec.window) return [];
  const param = spec.window.param ?? 'cursor';
  const more: { href: string; label: string }[] = [];
  if (query[param]) more.push({ href: link(spec.path, query, { [param]: undefined, page: undefined }), label: 'First rows' });
  if (spec.window.next) more.push({ href: link(spec.path, query, { [param]: spec.window.next, page: undefined }), label: spec.window.label });
  return more;
}

/** The list as a page fragment (search form, filters, table, pager), or the CSV export as a file reply. */
export function listView<R>(spec: ListSpec<R>, rows: R[], input: AnyRouteInput): { kind: 'page'; body: Raw } | { kind: 'file'; reply: Reply } {
  const filters = filtersOf(spec, rows);
  const query = queryOf(spec, filters, input);
  const matching = filtered(spec, filters, rows, query);
  if (query.format === 'csv') {
    return {
      kind: 'file',
      reply: { kind: 'file', body: toCsv(spec.columns, matching), contentType: 'text/csv; charset=utf-8', filename: `${spec.filename}.csv` },
    };
  }
  const size = spec.pageSize ?? 50;
  const pages = Math.max(1, Math.ceil(matching.length / size));
  const page = Math.min(Number(query.page ?? 1), pages);
  const shown = matching.slice((page - 1) * size, page * size);
  const pager = html`<nav class="pager" aria-label="Pages">
    ${page > 1 ? html`<a href="${link(spec.path, query, { page: page - 1 })}" rel="prev">← Previous</a>` : ''}
    <span>${matching.length} ${matching.length === 1 ? 'row' : 'rows'} · page ${page} of ${pages}</span>
    ${page < pages ? html`<a href="${link(spec.path, query, { page: page + 1 })}" rel="next">Next →</a>` : ''}
    ${[...windowLinks(spec, query), ...(spec.more ?? [])].map((m) => html`<a href="${m.href}">${m.label}</a>`)}
  </nav>`;
  return {
    kind: 'page',
    body: html`${toolbar(spec, filters, query)}${table(
      spec.title,
      spec.columns.map((c) => c.label),
      shown.map((r) => spec.columns.map((c) => c.cell(r))),
      spec.empty ?? 'None.',
    )}${pager}`,
  };
}

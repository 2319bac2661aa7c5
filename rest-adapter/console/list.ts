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
  /** The value in the CSV export (default: the cell as text). */
  csv?: (row: R) => string | number | boolean | null | undefined;
}

export interface ListFilter<R> {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  matches: (row: R, value: string) => boolean;
}

export interface ListSpec<R> {
  title: string;
  /** The page's own path (links to other pages, the export). */
  path: string;
  columns: ListColumn<R>[];
  /** The texts `q` searches in (case-insensitive, every word must occur). */
  searchable: (row: R) => (string | null | undefined)[];
  filters?: ListFilter<R>[];
  pageSize?: number;
  /** The CSV file's name, without extension. */
  filename: string;
  empty?: string;
  /** More links in the pager (e.g. the node's next window of a cursor-paged list). */
  more?: { href: string; label: string }[];
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

export function toCsv<R>(columns: ListColumn<R>[], rows: R[]): string {
  const lines = [columns.map((c) => csvField(c.label)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(c.csv ? c.csv(r) : c.cell(r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function filtered<R>(spec: ListSpec<R>, rows: R[], query: Record<string, unknown>): R[] {
  const words = (typeof query.q === 'string' ? query.q : '').toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    for (const f of spec.filters ?? []) {
      const value = query[f.name];
      if (typeof value === 'string' && value && !f.matches(r, value)) return false;
    }
    if (!words.length) return true;
    const hay = spec.searchable(r).filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

const link = (path: string, query: Record<string, unknown>, change: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...change })) if (v !== undefined && v !== '' && k !== 'saved') params.set(k, String(v as string));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
};

function toolbar<R>(spec: ListSpec<R>, query: Record<string, unknown>): Raw {
  const q = typeof query.q === 'string' ? query.q : '';
  return html`<form class="toolbar" method="get" action="${spec.path}" role="search">
    <div><label for="id_q">Search</label><input type="search" name="q" id="id_q" value="${q}" /></div>
    ${(spec.filters ?? []).map(
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

/** The list as a page fragment (search form, filters, table, pager), or the CSV export as a file reply. */
export function listView<R>(spec: ListSpec<R>, rows: R[], input: AnyRouteInput): { kind: 'page'; body: Raw } | { kind: 'file'; reply: Reply } {
  const query = (input.query ?? {}) as Record<string, unknown>;
  const matching = filtered(spec, rows, query);
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
    ${(spec.more ?? []).map((m) => html`<a href="${m.href}">${m.label}</a>`)}
  </nav>`;
  return {
    kind: 'page',
    body: html`${toolbar(spec, query)}${table(
      spec.title,
      spec.columns.map((c) => c.label),
      shown.map((r) => spec.columns.map((c) => c.cell(r))),
      spec.empty ?? 'None.',
    )}${pager}`,
  };
}

/** Columns of a table list whose distinct values become a filter (a status, a kind, a currency …). */
const FILTER_COLUMNS = new Set(['Status', 'Kind', 'Currency', 'Provider', 'Code', 'Type', 'Rule', 'Brand', 'Country', 'Fulfilment']);
/** Columns of forms and links only: not in the CSV export. */
const NO_CSV = new Set(['', 'Action', 'Actions', 'Edit', 'Image']);
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * A filter the node already applied (the page's query schema named it and its operation filtered on
 * it): shown in the toolbar with every option, kept in every link, never applied again to the rows.
 * It replaces the filter a column of the same name would have.
 */
export interface NodeFilter {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
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

export interface TableListSpec {
  title: string;
  path: string;
  filename: string;
  head: string[];
  empty?: string;
  nodeFilters?: NodeFilter[];
  window?: NodeWindow;
}

/**
 * A table a page already has (its head and its rows of cells) as a console list: search over every
 * cell's text, a filter per status-like column (its distinct values), paging and the CSV export.
 * The query comes from the page's URL as links make it: a page takes no schema, so a value that is
 * not one of a list's is ignored (an unknown page number shows the first page), never an error.
 * A list the node filters and pages by cursor names those filters (`nodeFilters`) and its window.
 */
export function tableList(spec: TableListSpec, rows: unknown[][], input: AnyRouteInput): ReturnType<typeof listView<unknown[]>> {
  // the URL's own values: a page's schema (if any) keeps only its own names
  const raw = { ...(input.req.query as Record<string, unknown>), ...(input.query ?? {}) } as Record<string, unknown>;
  const one = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string).slice(0, 200) : undefined);
  const page = Number.parseInt(one('page') ?? '1', 10);
  const byNode = new Set((spec.nodeFilters ?? []).map((f) => f.name));
  const filters: ListFilter<unknown[]>[] = [
    ...(spec.nodeFilters ?? []).map((f) => ({ ...f, matches: () => true })),
    ...spec.head.flatMap((label, i) => {
      if (!FILTER_COLUMNS.has(label) || byNode.has(slug(label))) return [];
      const values = [...new Set(rows.map((r) => cellText(r[i]).trim()).filter(Boolean))].sort();
      return [
        {
          name: slug(label),
          label,
          options: values.map((v) => ({ value: v, label: v })),
          matches: (r: unknown[], v: string) => cellText(r[i]).trim() === v,
        },
      ];
    }),
  ];
  const query: Record<string, unknown> = {
    q: one('q'),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    format: one('format') === 'csv' ? 'csv' : undefined,
  };
  for (const f of filters) if (f.options.some((o) => o.value === one(f.name))) query[f.name] = one(f.name);
  const more: { href: string; label: string }[] = [];
  if (spec.window) {
    // the window stays in the list's links (its pages, its export); the toolbar's form starts again at the first
    const param = spec.window.param ?? 'cursor';
    query[param] = one(param) || undefined;
    if (query[param]) more.push({ href: link(spec.path, query, { [param]: undefined, page: undefined }), label: 'First rows' });
    if (spec.window.next) more.push({ href: link(spec.path, query, { [param]: spec.window.next, page: undefined }), label: spec.window.label });
  }
  const columns: ListColumn<unknown[]>[] = spec.head.map((label, i) => ({ label, cell: (r) => r[i] }));
  const list: ListSpec<unknown[]> = {
    title: spec.title,
    path: spec.path,
    filename: spec.filename,
    empty: spec.empty,
    columns: query.format === 'csv' ? columns.filter((c) => !NO_CSV.has(c.label)) : columns,
    searchable: (r) => r.map(cellText),
    filters,
    more,
  };
  return listView(list, rows, { ...input, query } as AnyRouteInput);
}

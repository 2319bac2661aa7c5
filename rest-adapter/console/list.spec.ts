import { html } from '../../lib/html';
import type { AnyRouteInput } from '../core/route';
import { csvField, listView, toCsv, type ListSpec } from './list';
import { when } from './kit';

describe('console kit', () => {
  it('formats dates one way (strings and Dates alike)', () => {
    expect(when('2026-11-27T17:12:47.123Z')).toBe('2026-11-27 17:12:47 UTC');
    expect(when(new Date('2026-11-27T17:12:47.123Z'))).toBe('2026-11-27 17:12:47 UTC');
    expect(when('2026-11-27T17:12:47Z', { seconds: false })).toBe('2026-11-27 17:12 UTC');
    expect(when(null)).toBe('—');
  });

  it('writes CSV fields as RFC 4180 says, and never as a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(toCsv([{ label: 'Name', cell: (r: { n: string }) => r.n }], [{ n: 'ada' }])).toBe('Name\r\nada\r\n');
  });
});

interface Row {
  id: string;
  status: string;
  kind: string;
}
const ROWS: Row[] = [
  { id: 'a1', status: 'paid', kind: 'shop' },
  { id: 'b2', status: 'pending', kind: 'shop' },
  { id: 'c3', status: 'paid', kind: 'gift' },
];
const SPEC: ListSpec<Row> = {
  title: 'Orders',
  path: '/admin/x/',
  filename: 'x',
  columns: [
    { label: 'Order', cell: (r) => html`<code>${r.id}</code>` },
    { label: 'Status', cell: (r) => r.status, filter: true },
    { label: 'Kind', cell: (r) => r.kind },
    { label: 'Action', cell: (r) => html`<form action="/admin/x/${r.id}/"><button>Go</button></form>`, csv: false },
  ],
  // the node applied `kind` (no `matches`): shown and kept in links, never applied again
  filters: [{ name: 'kind', label: 'Kind', options: ['shop', 'gift'].map((v) => ({ value: v, label: v })) }],
  pageSize: 2,
};
/** A page's input as the REST core hands it (the URL's query; these pages take no query schema). */
const view = (query: Record<string, string>, spec: ListSpec<Row> = SPEC) =>
  listView(spec, ROWS, { req: { query }, query: undefined } as unknown as AnyRouteInput);
const body = (query: Record<string, string>, spec?: ListSpec<Row>) => {
  const v = view(query, spec);
  if (v.kind !== 'page') throw new Error('expected a page');
  return v.body.value;
};
const csv = (query: Record<string, string>) => {
  const v = view({ ...query, format: 'csv' });
  if (v.kind !== 'file' || v.reply.kind !== 'file') throw new Error('expected a file');
  return String(v.reply.body);
};

describe('console list spec', () => {
  it("turns a `filter: true` column's distinct values into a filter after the spec's own, and applies it", () => {
    const page = body({});
    expect([...page.matchAll(/<select name="([^"]+)"/g)].map((m) => m[1])).toEqual(['kind', 'status']);
    expect([...page.matchAll(/<option value="(paid|pending)"/g)].map((m) => m[1])).toEqual(['paid', 'pending']);
    expect(csv({ status: 'paid' })).toBe('Order,Status,Kind\r\na1,paid,shop\r\nc3,paid,gift\r\n');
  });

  it("never applies the node's own filter again, yet keeps it in every link", () => {
    expect(csv({ kind: 'gift' })).toBe('Order,Status,Kind\r\na1,paid,shop\r\nb2,pending,shop\r\nc3,paid,gift\r\n');
    const page = body({ kind: 'gift' });
    expect(page).toContain('href="/admin/x/?page=2&amp;kind=gift"');
    expect(page).toContain('href="/admin/x/?format=csv&amp;kind=gift"');
  });

  it('searches every cell as text by default, and leaves `csv: false` columns out of the export', () => {
    expect(csv({ q: 'B2' })).toBe('Order,Status,Kind\r\nb2,pending,shop\r\n');
    expect(csv({ q: 'b2 shop' })).toBe('Order,Status,Kind\r\nb2,pending,shop\r\n');
    expect(csv({ q: 'b2 gift' })).toBe('Order,Status,Kind\r\n');
  });

  it("ignores a hand-edited URL's values that are not the list's (never an error)", () => {
    expect(csv({ status: 'nonsense', kind: 'nonsense' }).split('\r\n')).toHaveLength(5);
    const page = body({ page: 'abc', status: 'nonsense' });
    expect(page).toContain('3 rows · page 1 of 2');
    expect(page).not.toContain('nonsense');
    expect(body({ page: '99' })).toContain('page 2 of 2');
  });

  it("links the node's next window and back to the first, keeping the window in the list's own links", () => {
    const spec = { ...SPEC, window: { next: 'N2', label: 'Older →' } };
    expect(body({}, spec)).toContain('href="/admin/x/?cursor=N2">Older →');
    const second = body({ cursor: 'N1' }, { ...spec, window: { next: null, label: 'Older →' } });
    expect(second).toContain('href="/admin/x/">First rows');
    expect(second).toContain('href="/admin/x/?page=2&amp;cursor=N1"');
    expect(second).not.toContain('Older →');
  });
});

/** Activity: every movement with filters and CSV export; a receipt page per transaction (dispute it from there). */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { dateTime, money, words } from '../format';
import { moduleOn, to, useNode } from '../state';
import { Details, Empty, ErrorNote, Field, Loading, Page, Select, formValue, useLoad } from '../ui/kit';
import { TransactionList, describe, type Transaction } from './home';

interface Filters {
  account?: string;
  from?: string;
  to?: string;
  direction?: 'debit' | 'credit';
  status?: 'posted' | 'pending' | 'voided' | 'expired';
}

/** The query of one page: the node applies every filter, so each page is full and "Show more" keeps them. */
const queryOf = (filters: Filters, cursor?: string) => ({
  account: filters.account,
  from: filters.from && `${filters.from}T00:00:00Z`,
  to: filters.to && `${filters.to}T23:59:59Z`,
  direction: filters.direction,
  status: filters.status,
  cursor,
  limit: 50,
});

/** RFC 4180 CSV of the lines shown (the spreadsheet formula prefixes neutralised). */
export function toCsv(items: Transaction[]): string {
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const header = ['date', 'description', 'direction', 'amount', 'currency', 'status', 'id'];
  const rows = items.map((t) => [
    t.created_at,
    describe(t),
    t.direction,
    (t.direction === 'debit' ? '-' : '') + t.amount.amount,
    t.amount.currency,
    t.status,
    t.id,
  ]);
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function download(items: Transaction[]): void {
  const url = URL.createObjectURL(new Blob([toCsv(items)], { type: 'text/csv' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: 'activity.csv' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function FilterForm(props: { onChange: (filters: Filters) => void }) {
  const { data: accounts } = useLoad(() => unwrap(api.GET('/api/v1/accounts/')));
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const read = (name: string) => formValue(form, name) || undefined;
    props.onChange({
      account: read('account'),
      from: read('from'),
      to: read('to'),
      direction: read('direction') as Filters['direction'],
      status: read('status') as Filters['status'],
    });
  };
  const options: [string, string][] = [
    ['', 'All accounts'],
    ...(accounts?.results ?? []).map((a): [string, string] => [a.id, `${a.currency} ${words(a.type)}`]),
  ];
  return (
    <form class="filters card" onSubmit={submit} aria-label="Filter activity">
      <Select id="account" label="Account" options={options} />
      <Select
        id="direction"
        label="Money"
        options={[
          ['', 'In and out'],
          ['credit', 'In'],
          ['debit', 'Out'],
        ]}
      />
      <Select
        id="status"
        label="Status"
        options={[
          ['', 'Any status'],
          ['posted', 'Completed'],
          ['pending', 'Pending'],
          ['voided', 'Cancelled'],
          ['expired', 'Expired'],
        ]}
      />
      <Field id="from" label="From date" type="date" />
      <Field id="to" label="To date" type="date" />
      <button type="submit" class="secondary">
        Apply filters
      </button>
    </form>
  );
}

export function Activity() {
  const [filters, setFilters] = useState<Filters>({});
  const [pages, setPages] = useState<Transaction[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const { data, error } = useLoad(async () => {
    const first = await unwrap(api.GET('/api/v1/transactions/', { params: { query: queryOf(filters) } }));
    setPages([first.results]);
    setCursor(first.next_cursor ?? null);
    return first;
  }, [filters]);
  const more = async () => {
    const next = await unwrap(api.GET('/api/v1/transactions/', { params: { query: queryOf(filters, cursor ?? undefined) } }));
    setPages([...pages, next.results]);
    setCursor(next.next_cursor ?? null);
  };
  const items = pages.flat();
  return (
    <Page title="Activity">
      <FilterForm onChange={setFilters} />
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="your activity" /> : null}
      {data && items.length === 0 ? <Empty>Nothing matches these filters.</Empty> : null}
      {items.length ? <TransactionList items={items} /> : null}
      <div class="actions">
        {cursor ? (
          <button type="button" class="secondary" onClick={() => void more()}>
            Show more
          </button>
        ) : null}
        <button type="button" class="secondary" onClick={() => download(items)} disabled={!items.length}>
          Export CSV
        </button>
        <a class="button secondary" href={to('statement')}>
          Statement for a period
        </a>
      </div>
    </Page>
  );
}

export function Receipt(props: { id?: string }) {
  const id = props.id ?? '';
  const node = useNode();
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/transactions/{id}/receipt/', { params: { path: { id } } })), [id]);
  return (
    <Page title="Receipt">
      <ErrorNote error={error} />
      {data ? (
        <section class="card narrow receipt" id="receipt">
          <p class="big">
            {data.direction === 'credit' ? '+' : '−'}
            {money(data.amount)}
          </p>
          <Details
            rows={[
              ['What', describe(data)],
              ['Status', words(data.status)],
              ['Date', dateTime(data.created_at)],
              ['Settled', dateTime(data.settled_at)],
              ['Note', data.note ?? '—'],
              ['Reference', <code key="id">{data.id}</code>],
            ]}
          />
          <div class="actions">
            <button type="button" class="secondary" onClick={() => window.print()}>
              Print receipt
            </button>
            {moduleOn(node, 'disputes') && data.direction === 'debit' ? (
              <a class="button secondary" href={`${to('disputes')}?transaction=${encodeURIComponent(data.id)}`}>
                Dispute this payment
              </a>
            ) : null}
          </div>
        </section>
      ) : !error ? (
        <Loading what="the receipt" />
      ) : null}
    </Page>
  );
}

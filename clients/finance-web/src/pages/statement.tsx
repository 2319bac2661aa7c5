/** A statement for a period: opening and closing balances per account, the lines between, as a printable page and a CSV. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { dateTime, describeLine, money } from '../format';
import { to } from '../state';
import { ErrorNote, Field, Page, formValue, useAction } from '../ui/kit';
import type { Transaction } from './home';

type Heads = paths['/api/v1/statements/']['get']['responses'][200]['content']['application/json'];
interface Statement {
  from: string;
  to: string;
  heads: Heads['accounts'];
  lines: Transaction[];
}

const day = (date: Date) => date.toISOString().slice(0, 10);
/** The day after `date` (YYYY-MM-DD): the period's end is excluded, so "to 31 March" ends at 1 April 00:00 UTC. */
const dayAfter = (date: string) => day(new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000));

/** A day as people read it ("Dec 7, 2026"), in UTC like the period itself. */
const dayOf = (iso: string) => new Date(iso).toLocaleDateString(navigator.language || 'en', { dateStyle: 'medium', timeZone: 'UTC' });

/** Every line of the period (the node's pages of 200), oldest first as on a bank statement. */
async function linesOf(from: string, end: string): Promise<Transaction[]> {
  const lines: Transaction[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/v1/transactions/', { params: { query: { from, to: end, status: 'posted', limit: 200, cursor } } }));
    lines.push(...page.results);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return lines.reverse();
}

/** RFC 4180 CSV: per account its opening balance, its lines, its closing balance. */
export function statementCsv(s: Statement): string {
  const cell = (value: string) =>
    /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  const rows: string[][] = [['date', 'description', 'amount', 'currency', 'id']];
  for (const head of s.heads) {
    rows.push([s.from, 'Opening balance', head.opening_balance.amount, head.currency, '']);
    for (const l of s.lines.filter((line) => line.amount.currency === head.currency && line.account_id === head.account_id))
      rows.push([l.created_at, describeLine(l), (l.direction === 'debit' ? '-' : '') + l.amount.amount, l.amount.currency, l.id]);
    rows.push([s.to, 'Closing balance', head.closing_balance.amount, head.currency, '']);
  }
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function save(s: Statement): void {
  const url = URL.createObjectURL(new Blob([statementCsv(s)], { type: 'text/csv' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: `statement-${s.from.slice(0, 10)}-${s.to.slice(0, 10)}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function AccountStatement(props: { head: Heads['accounts'][number]; lines: Transaction[] }) {
  const { head } = props;
  const lines = props.lines.filter((l) => l.account_id === head.account_id);
  return (
    <section class="card statement-account" data-currency={head.currency} aria-label={`${head.currency} account`}>
      <h2>{head.currency}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Date</th>
              <th>Description</th>
              <th class="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            <tr class="opening">
              <td colSpan={2}>Opening balance</td>
              <td class="num">{money(head.opening_balance)}</td>
            </tr>
            {lines.map((l) => (
              <tr key={l.id}>
                <td>{dateTime(l.created_at)}</td>
                <td>{describeLine(l)}</td>
                <td class="num">
                  {l.direction === 'debit' ? '−' : '+'}
                  {money(l.amount)}
                </td>
              </tr>
            ))}
            <tr class="closing">
              <td colSpan={2}>
                Closing balance{' '}
                <small>
                  (in {money(head.money_in)}, out {money(head.money_out)})
                </small>
              </td>
              <td class="num">{money(head.closing_balance)}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function StatementPage() {
  const [statement, setStatement] = useState<Statement | null>(null);
  const action = useAction();
  const today = new Date();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const from = `${formValue(form, 'statement-from')}T00:00:00Z`;
    const end = `${dayAfter(formValue(form, 'statement-to'))}T00:00:00Z`;
    void action.run(async () => {
      const heads = await unwrap(api.GET('/api/v1/statements/', { params: { query: { from, to: end } } }));
      setStatement({ from: heads.from, to: heads.to, heads: heads.accounts, lines: await linesOf(from, end) });
    });
  };
  return (
    <Page title="Statement" lead="Your accounts for a period: the balance at its start, every completed movement, the balance at its end.">
      <form class="filters card no-print" onSubmit={submit} aria-label="Statement period">
        <Field id="statement-from" label="From date" type="date" defaultValue={day(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)))} />
        <Field id="statement-to" label="To date (included)" type="date" defaultValue={day(today)} />
        <button type="submit" disabled={action.busy}>
          Show statement
        </button>
      </form>
      <ErrorNote error={action.error} />
      {statement ? (
        <div id="statement">
          <p>
            From {dayOf(statement.from)} to {dayOf(new Date(Date.parse(statement.to) - 86_400_000).toISOString())}, both included
          </p>
          {statement.heads.length ? null : <p>You had no account in this period.</p>}
          {statement.heads.map((head) => (
            <AccountStatement key={head.account_id} head={head} lines={statement.lines} />
          ))}
          <div class="actions no-print">
            <button type="button" class="secondary" onClick={() => save(statement)}>
              Download CSV
            </button>
            <button type="button" class="secondary" onClick={() => window.print()}>
              Print statement
            </button>
          </div>
        </div>
      ) : null}
      <p class="no-print">
        <a href={to('activity')}>Back to your activity</a>
      </p>
    </Page>
  );
}

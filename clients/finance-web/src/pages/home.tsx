/** Home: balances per currency (available, and what is pending), recent activity, quick actions. */
import { useState } from 'preact/hooks';
import { api, session, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { amount, dateTime, describeLine, money, subtract } from '../format';
import { moduleOn, to, useNode } from '../state';
import { Empty, ErrorNote, Loading, Page, useLoad } from '../ui/kit';

type Balance = { currency: string; available: { amount: string }; posted: { amount: string }; pending: { amount: string } };

/** The node's `pending` is posted plus what is pending both ways: what is pending is the difference. */
export const pendingOf = (balance: Balance): string => subtract(balance.pending.amount, balance.posted.amount);

type Balances = { balances: Balance[] };

/**
 * The last balances this tab was given, for this session only (sessionStorage, keyed by the access
 * token: another sign-in never sees them). During maintenance the node answers every API request 503
 * (its contract: reads too, so that nothing reads a ledger being upgraded); the page then shows these,
 * dated, with the reason, instead of blanking what the user holds.
 */
const LAST_BALANCES = 'finance.lastBalances';
function remember(data: Balances): void {
  sessionStorage.setItem(LAST_BALANCES, JSON.stringify({ token: session.token(), at: new Date().toISOString(), data }));
}
function lastKnown(): { at: string; data: Balances } | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(LAST_BALANCES) ?? 'null') as { token: string | null; at: string; data: Balances } | null;
    return saved && saved.token === session.token() ? saved : null;
  } catch {
    return null;
  }
}
const isMaintenance = (error: unknown) => error instanceof ApiError && (error.code === 'maintenance' || error.status === 503);

export function Balances(props: { onLoaded?: () => void }) {
  const { data, error } = useLoad(() =>
    unwrap(api.GET('/api/balance/'))
      .then((answer) => {
        remember(answer);
        return answer;
      })
      .finally(() => props.onLoaded?.()),
  );
  if (error) {
    const last = isMaintenance(error) ? lastKnown() : null;
    if (!last) return <ErrorNote error={error} />;
    return (
      <>
        <p class="banner banner-maintenance" role="status" id="balances-stale">
          Under maintenance: your balances as of {dateTime(last.at)}. They may have changed since; nothing can be sent until the service is back.
        </p>
        <BalanceList balances={last.data.balances} />
      </>
    );
  }
  if (!data) return <Loading what="your balances" />;
  if (data.balances.length === 0) return <AddMoney />;
  return <BalanceList balances={data.balances} />;
}

function BalanceList(props: { balances: Balance[] }) {
  return (
    <ul class="balances" id="balances" aria-label="Your balances">
      {props.balances.map((balance) => {
        const pending = pendingOf(balance);
        return (
          <li key={balance.currency} class="balance card" data-currency={balance.currency}>
            <span class="currency">{balance.currency}</span>
            <span class="available" data-testid="available">
              {amount(balance.available.amount, balance.currency)}
            </span>
            <span class="sub">available</span>
            {Number(pending) !== 0 ? (
              <span class="pending" data-testid="pending">
                {amount(pending, balance.currency)} pending
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Someone who holds nothing yet: the ways to add money on this node (its modules that bring money in). */
export function AddMoney() {
  const node = useNode();
  const ways = [
    moduleOn(node, 'mobile_money')
      ? { route: 'mobile-money', label: 'Add money by mobile money', text: 'From your mobile money wallet (GHS, UGX, XOF, KES).' }
      : null,
    moduleOn(node, 'virtual_iban') || moduleOn(node, 'african_accounts')
      ? { route: 'accounts', label: 'Get bank details', text: 'Your own account number: a bank transfer to it arrives in your wallet.' }
      : null,
  ].filter((w) => w !== null);
  return (
    <div class="card" id="add-money">
      <p>You hold no money yet.</p>
      {ways.length ? (
        <>
          <p>Add money to start:</p>
          <ul class="list">
            {ways.map((w) => (
              <li key={w.route} class="way">
                <a class="button" href={to(w.route)}>
                  {w.label}
                </a>
                <small>{w.text}</small>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        <small>Or ask someone on this node to send you money: they need your username.</small>
      </p>
    </div>
  );
}

export function RecentActivity() {
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/transactions/', { params: { query: { limit: 5 } } })));
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading what="recent activity" />;
  if (data.results.length === 0) return <Empty>No activity yet.</Empty>;
  return <TransactionList items={data.results} />;
}

export type Transaction = {
  id: string;
  account_id?: string;
  direction: 'debit' | 'credit';
  code: string;
  status: string;
  amount: { amount: string; currency: string };
  description?: string | null;
  counterparty?: string | null;
  created_at: string;
};

export const describe = (t: Transaction): string => describeLine(t);

export function TransactionList(props: { items: Transaction[] }) {
  return (
    <ul class="transactions">
      {props.items.map((t) => (
        <li key={t.id}>
          <a href={to(`activity/${t.id}`)} class="row">
            <span class="what">
              {describe(t)}
              <small>
                {dateTime(t.created_at)}
                {t.status !== 'posted' ? ` · ${t.status}` : ''}
              </small>
            </span>
            <span class={t.direction === 'credit' ? 'amount credit' : 'amount debit'}>
              {t.direction === 'credit' ? '+' : '−'}
              {money(t.amount)}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Home() {
  // the activity is asked for once the balances are in: on a busy node the balances, what the page is for, come first
  const [balancesIn, setBalancesIn] = useState(false);
  return (
    <Page title="Home">
      <h2>Balances</h2>
      <Balances onLoaded={() => setBalancesIn(true)} />
      <p class="actions">
        <a class="button" href={to('send')}>
          Send money
        </a>
        <a class="button secondary" href={to('convert')}>
          Convert
        </a>
      </p>
      <h2>Recent activity</h2>
      {balancesIn ? <RecentActivity /> : <Loading what="recent activity" />}
      <p>
        <a href={to('activity')}>All activity</a>
      </p>
    </Page>
  );
}

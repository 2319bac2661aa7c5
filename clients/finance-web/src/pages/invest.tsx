/** Invest: search instruments, a live quote, buy or sell (shares, or an amount when fractional trading is on), open orders, portfolio. */
import { useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { amount, dateTime, parseAmount, words } from '../format';
import { useNode } from '../state';
import { Details, Empty, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Instrument = paths['/api/v1/instruments/']['get']['responses'][200]['content']['application/json']['results'][number];
type Order = paths['/api/v1/orders/']['post']['responses'][201]['content']['application/json'];
const OPEN = ['new', 'accepted', 'pending_new', 'accepted_for_bidding', 'partially_filled', 'pending_cancel', 'pending_replace'];

function Search(props: { onPick: (instrument: Instrument) => void }) {
  const [term, setTerm] = useState('');
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/instruments/', { params: { query: { limit: 200 } } })));
  const found = (data?.results ?? []).filter((i) => `${i.symbol} ${i.name}`.toLowerCase().includes(term.toLowerCase()));
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">Find a share</h2>
      <Field id="search" label="Search by name or symbol" type="search" value={term} onInput={(e: Event) => setTerm((e.target as HTMLInputElement).value)} />
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="instruments" /> : null}
      {data && !found.length ? <Empty>No instrument matches.</Empty> : null}
      <ul class="list" id="instruments">
        {found.slice(0, 20).map((i) => (
          <li key={i.symbol}>
            <button type="button" class="link" onClick={() => props.onPick(i)}>
              {i.symbol} · {i.name}
            </button>{' '}
            {i.last_price ? <small>{amount(i.last_price, i.quote_currency)}</small> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

interface Draft {
  side: string;
  qty?: string;
  notional?: string;
  key: string;
}

function OrderForm(props: { instrument: Instrument; fractional: boolean; onReview: (draft: Draft) => void }) {
  const { instrument, fractional } = props;
  const [by, setBy] = useState<'qty' | 'notional'>('qty');
  const [error, setError] = useState<Error | null>(null);
  const review = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const value = parseAmount(formValue(form, 'size'), by === 'notional' ? 2 : fractional ? 6 : 0);
    if (!value)
      return setError(
        new Error(
          by === 'notional'
            ? 'Enter an amount greater than zero.'
            : fractional
              ? 'Enter a number of shares greater than zero.'
              : 'Enter a whole number of shares.',
        ),
      );
    props.onReview({ side: formValue(form, 'side'), [by]: value, key: idempotencyKey() });
  };
  return (
    <form onSubmit={review} noValidate>
      <Select
        id="side"
        label="Buy or sell"
        options={[
          ['buy', 'Buy'],
          ['sell', 'Sell'],
        ]}
      />
      {fractional ? (
        <Select
          id="by"
          label="Order by"
          options={[
            ['qty', 'Number of shares'],
            ['notional', 'Amount of money'],
          ]}
          value={by}
          onChange={(e: Event) => setBy((e.target as HTMLSelectElement).value as 'qty')}
        />
      ) : null}
      <Field
        id="size"
        label={by === 'notional' ? `Amount (${instrument.quote_currency})` : 'Shares'}
        inputMode="decimal"
        hint={fractional ? 'Fractions of a share are allowed.' : 'Whole shares only.'}
      />
      <ErrorNote id="order-error" error={error} />
      <button type="submit">Review order</button>
    </form>
  );
}

function OrderConfirm(props: { instrument: Instrument; draft: Draft; onOrder: (order: Order) => void; onBack: () => void }) {
  const { instrument, draft } = props;
  const action = useAction();
  const place = () =>
    action.run(async () => {
      const size = draft.qty ? { qty: draft.qty } : { notional: draft.notional };
      props.onOrder(
        await unwrap(
          api.POST('/api/v1/orders/', { body: { symbol: instrument.symbol, side: draft.side, type: 'market', ...size, client_order_id: draft.key } }),
        ),
      );
    });
  return (
    <>
      <Details
        rows={[
          ['Order', `${words(draft.side)} ${instrument.symbol} at market`],
          ['Size', draft.qty ? `${draft.qty} shares` : amount(draft.notional!, instrument.quote_currency)],
        ]}
      />
      <ErrorNote id="order-error" error={action.error} />
      <div class="actions">
        <button type="button" onClick={() => void place()} disabled={action.busy}>
          Confirm {draft.side}
        </button>
        <button type="button" class="secondary" onClick={props.onBack}>
          Change
        </button>
      </div>
    </>
  );
}

function Trade(props: { instrument: Instrument; onOrder: (order: Order) => void }) {
  const { instrument } = props;
  const node = useNode();
  const fractional = !!node.config?.brokerage.fractional_shares && instrument.fractionable;
  const quote = useLoad(() => unwrap(api.GET('/api/v1/instruments/{symbol}/quote/', { params: { path: { symbol: instrument.symbol } } })), [instrument.symbol]);
  const [draft, setDraft] = useState<Draft | null>(null);
  return (
    <section class="card narrow" aria-labelledby="trade-title" id="trade">
      <h2 id="trade-title">{instrument.name}</h2>
      {quote.data ? (
        <p id="live-quote" role="status">
          {instrument.symbol}: {amount(quote.data.price, quote.data.currency)} <small>at {dateTime(quote.data.at)}</small>
        </p>
      ) : (
        <ErrorNote error={quote.error} />
      )}
      {draft ? (
        <OrderConfirm instrument={instrument} draft={draft} onOrder={(order) => (setDraft(null), props.onOrder(order))} onBack={() => setDraft(null)} />
      ) : (
        <OrderForm instrument={instrument} fractional={fractional} onReview={setDraft} />
      )}
    </section>
  );
}

function Orders(props: { tick: number }) {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/orders/', { params: { query: { limit: 50 } } })), [props.tick]);
  const action = useAction();
  const cancel = (id: string) => action.run(async () => (await unwrap(api.DELETE('/api/v1/orders/{id}/', { params: { path: { id } } })), reload()));
  const open = (data?.results ?? []).filter((o) => OPEN.includes(o.status));
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">Open orders</h2>
      <ErrorNote error={error ?? action.error} />
      {data && !open.length ? <Empty>No open orders.</Empty> : null}
      <ul class="list" id="open-orders">
        {open.map((o) => (
          <li key={o.id}>
            {words(o.side)} {o.qty ? `${o.qty} ${o.symbol}` : `${amount(o.notional!, o.reserved.currency)} of ${o.symbol}`} · {words(o.status)}{' '}
            <button type="button" class="secondary" onClick={() => void cancel(o.id)} aria-label={`Cancel order for ${o.symbol}`}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Portfolio(props: { tick: number }) {
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/portfolio/')), [props.tick]);
  return (
    <section aria-labelledby="portfolio-title">
      <h2 id="portfolio-title">Portfolio</h2>
      <ErrorNote error={error} />
      {data && !data.positions.length ? <Empty>You hold no shares yet.</Empty> : null}
      {data?.positions.length ? (
        <div class="table-wrap">
          <table id="portfolio">
            <thead>
              <tr>
                <th scope="col">Share</th>
                <th scope="col">Quantity</th>
                <th scope="col">Average cost</th>
                <th scope="col">Value</th>
                <th scope="col">Gain or loss</th>
              </tr>
            </thead>
            <tbody>
              {data.positions.map((p) => (
                <tr key={`${p.provider}:${p.symbol}`} data-symbol={p.symbol}>
                  <th scope="row">{p.symbol}</th>
                  <td>{p.qty}</td>
                  <td>{amount(p.average_cost, p.currency)}</td>
                  <td>{p.market_value ? amount(p.market_value, p.currency) : '—'}</td>
                  <td class={p.unrealized_pl && !p.unrealized_pl.startsWith('-') ? 'credit' : undefined}>
                    {p.unrealized_pl ? amount(p.unrealized_pl, p.currency) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

export function Invest() {
  const [instrument, setInstrument] = useState<Instrument | null>(null);
  const [last, setLast] = useState<Order | null>(null);
  const [tick, setTick] = useState(0);
  return (
    <Page title="Invest" lead="Buy and sell shares from your wallet. Prices move: a market order fills at the price of the moment.">
      {last ? (
        <p class="card" role="status" id="order-placed">
          Order placed: {words(last.side)} {last.symbol}, {words(last.status)}
          {last.filled_avg_price ? ` at ${amount(last.filled_avg_price, last.reserved.currency)}` : ''}.
        </p>
      ) : null}
      {instrument ? <Trade instrument={instrument} onOrder={(order) => (setLast(order), setTick(tick + 1))} /> : null}
      <Search onPick={(i) => (setInstrument(i), setLast(null))} />
      <Orders tick={tick} />
      <Portfolio tick={tick} />
    </Page>
  );
}

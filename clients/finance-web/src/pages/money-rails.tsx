/** Mobile money (deposit, withdraw), crypto (deposit addresses, swaps) and fiat on/off-ramps. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { dateTime, money, parseAmount, words } from '../format';
import { Details, Empty, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Movement = paths['/api/v1/ramps/']['get']['responses'][200]['content']['application/json']['results'][number];

function Movements(props: { items: Movement[] | undefined; error: unknown; id: string }) {
  if (props.error) return <ErrorNote error={props.error} />;
  if (!props.items) return <Loading />;
  if (!props.items.length) return <Empty>Nothing yet.</Empty>;
  return (
    <ul class="list" id={props.id}>
      {props.items.map((m) => (
        <li key={m.id}>
          {words(m.type)} {money(m.amount)}
          {m.converted_amount ? ` → ${money(m.converted_amount)}` : ''} · <span class="tag">{words(m.status)}</span>{' '}
          <small>{m.failure_reason ?? dateTime(m.created_at)}</small>
        </li>
      ))}
    </ul>
  );
}

export function MobileMoney() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/mobile-money/')));
  const action = useAction();
  // a pending request completes when the provider calls back: the history follows it (every 2 s while one is pending)
  const pending = (data?.results ?? []).some((m) => m.status === 'pending');
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [data, pending]);
  const submit = (direction: 'deposits' | 'withdrawals') => (event: Event) => {
    event.preventDefault();
    const form = (event.currentTarget as HTMLElement).closest('form')!;
    const value = parseAmount(formValue(form, 'mm-amount'), 2);
    if (!value) return action.setError(new Error('Enter an amount greater than zero.'));
    const body = { amount: value, currency: formValue(form, 'mm-currency'), phone_number: formValue(form, 'mm-phone') };
    void action.run(
      async () => (await unwrap(api.POST(`/api/v1/mobile-money/${direction}/`, { body, headers: { 'Idempotency-Key': idempotencyKey() } })), reload()),
    );
  };
  return (
    <Page title="Mobile money" lead="Add money from your mobile money wallet, or send money to it.">
      <form class="card narrow" onSubmit={submit('deposits')} noValidate>
        <Field id="mm-phone" label="Mobile money phone number" type="tel" autoComplete="tel" />
        <Field id="mm-amount" label="Amount" inputMode="decimal" />
        <Select id="mm-currency" label="Currency" options={['GHS', 'UGX', 'XOF', 'KES']} />
        <ErrorNote error={action.error} />
        <div class="actions">
          <button type="submit" disabled={action.busy}>
            Add money
          </button>
          <button type="button" class="secondary" onClick={submit('withdrawals')} disabled={action.busy}>
            Withdraw
          </button>
        </div>
      </form>
      {pending ? (
        <p role="status" id="mobile-money-pending">
          Approve the payment on your phone: it completes as soon as your provider confirms it.
        </p>
      ) : null}
      <h2>History</h2>
      <Movements items={data?.results} error={error} id="mobile-money" />
    </Page>
  );
}

function Swap() {
  const [quote, setQuote] = useState<paths['/api/v1/crypto/quotes/']['post']['responses'][201]['content']['application/json'] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const ask = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const from_amount = parseAmount(formValue(form, 'swap-amount'), 8);
    if (!from_amount) return action.setError(new Error('Enter an amount greater than zero.'));
    const body = { from_asset: formValue(form, 'swap-from'), to_asset: formValue(form, 'swap-to'), from_amount };
    void action.run(async () => setQuote(await unwrap(api.POST('/api/v1/crypto/quotes/', { body }))));
  };
  const swap = () =>
    action.run(async () => {
      const result = await unwrap(api.POST('/api/v1/crypto/swaps/', { body: { quote_id: quote!.id }, headers: { 'Idempotency-Key': quote!.id } }));
      setDone(`Swapped ${money(result.from_amount)} for ${money(result.to_amount)}.`);
      setQuote(null);
    });
  return (
    <section class="card narrow" aria-labelledby="swap-title">
      <h2 id="swap-title">Swap</h2>
      {done ? <p role="status">{done}</p> : null}
      {quote ? (
        <>
          <Details
            rows={[
              ['You give', money(quote.from_amount)],
              ['Fee', money(quote.fee)],
              ['Rate', quote.rate],
              ['You get', money(quote.to_amount)],
              ['Valid until', dateTime(quote.expires_at)],
            ]}
          />
          <div class="actions">
            <button type="button" onClick={() => void swap()} disabled={action.busy}>
              Confirm swap
            </button>
            <button type="button" class="secondary" onClick={() => setQuote(null)}>
              Change
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={ask} noValidate>
          <Select id="swap-from" label="From" options={['USDC', 'USDT', 'BTC', 'ETH']} />
          <Select id="swap-to" label="To" options={['BTC', 'ETH', 'USDC', 'USDT']} />
          <Field id="swap-amount" label="Amount" inputMode="decimal" />
          <button type="submit" disabled={action.busy}>
            Get a quote
          </button>
        </form>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}

export function Crypto() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/crypto/addresses/')));
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    const asset = formValue(event.currentTarget as HTMLFormElement, 'asset');
    void action.run(async () => (await unwrap(api.POST('/api/v1/crypto/addresses/', { body: { asset } })), reload()));
  };
  return (
    <Page title="Crypto">
      <section class="card narrow" aria-labelledby="addresses-title">
        <h2 id="addresses-title">Deposit addresses</h2>
        <ErrorNote error={error ?? action.error} />
        {data && !data.results.length ? <Empty>No address yet.</Empty> : null}
        <Details rows={(data?.results ?? []).map((a): [string, ComponentChildren] => [`${a.asset} (${a.network})`, <code key={a.id}>{a.address}</code>])} />
        <form onSubmit={create}>
          <Select id="asset" label="Asset" options={['BTC', 'ETH', 'USDC', 'USDT']} />
          <button type="submit" class="secondary" disabled={action.busy}>
            Show my deposit address
          </button>
        </form>
      </section>
      <Swap />
    </Page>
  );
}

export function Ramps() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/ramps/')));
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const value = parseAmount(formValue(form, 'ramp-amount'), 8);
    if (!value) return action.setError(new Error('Enter an amount greater than zero.'));
    const body = { direction: formValue(form, 'direction'), fiat_currency: formValue(form, 'fiat'), asset: formValue(form, 'ramp-asset'), amount: value };
    void action.run(async () => (await unwrap(api.POST('/api/v1/ramps/', { body, headers: { 'Idempotency-Key': idempotencyKey() } })), reload()));
  };
  return (
    <Page title="Buy and sell crypto" lead="Buy crypto with money from your wallet, or sell it back.">
      <form class="card narrow" onSubmit={submit} noValidate>
        <Select
          id="direction"
          label="Buy or sell"
          options={[
            ['on', 'Buy crypto'],
            ['off', 'Sell crypto'],
          ]}
        />
        <Select id="fiat" label="Money" options={['EUR', 'GBP', 'USD', 'NGN']} />
        <Select id="ramp-asset" label="Asset" options={['USDC', 'USDT', 'BTC', 'ETH']} />
        <Field id="ramp-amount" label="Amount" inputMode="decimal" />
        <ErrorNote error={action.error} />
        <button type="submit" disabled={action.busy}>
          Continue
        </button>
      </form>
      <h2>History</h2>
      <Movements items={data?.results} error={error} id="ramps" />
    </Page>
  );
}

/** Airtime, data and bills (recorded as pending_integration: said plainly), and gift cards (fulfilment pending). */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { dateTime, money, parseAmount, words } from '../format';
import { Empty, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

const STATUS: Record<string, string> = {
  pending_integration: 'recorded, not sent yet: this service is not connected to a provider yet, and you were not charged',
  pending: 'on its way',
  successful: 'done',
  failed: 'failed',
  reversed: 'reversed',
};

function Requests(props: { tick: number }) {
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/utilities/requests/', { params: { query: { limit: 20 } } })), [props.tick]);
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Your requests</h2>
      <ErrorNote error={error} />
      {data && !data.results.length ? <Empty>No requests yet.</Empty> : null}
      <ul class="list" id="utility-requests">
        {(data?.results ?? []).map((r) => (
          <li key={r.id}>
            {words(r.kind)} {money(r.amount)} for {r.phone_number ?? r.account_number} · <span class="tag">{words(r.status)}</span>{' '}
            <small>
              {STATUS[r.status] ?? ''} · {dateTime(r.created_at)}
            </small>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Utilities() {
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/utilities/catalogue/')));
  const [tick, setTick] = useState(0);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const airtime = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const operator = data?.operators.find((o) => o.code === formValue(form, 'operator'));
    const value = parseAmount(formValue(form, 'airtime-amount'), 2);
    if (!operator || !value) return action.setError(new Error('Choose an operator and enter an amount.'));
    const body = { operator: operator.code, phone_number: formValue(form, 'phone'), amount: value, currency: operator.min_amount.currency };
    void action.run(async () => {
      const request = await unwrap(api.POST('/api/v1/utilities/airtime/', { body }));
      setDone(`Your top-up is ${STATUS[request.status] ?? words(request.status)}.`);
      setTick(tick + 1);
    });
  };
  return (
    <Page
      title="Airtime and bills"
      lead="Top-ups and bill payments are recorded now and sent once this service is connected to a provider; you are not charged until then."
    >
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="operators" /> : null}
      {data ? (
        <form class="card narrow" onSubmit={airtime} noValidate>
          <h2>Airtime top-up</h2>
          <Select id="operator" label="Operator" options={data.operators.map((o): [string, string] => [o.code, `${o.name} (${o.country})`])} />
          <Field id="phone" label="Phone number" type="tel" autoComplete="tel" />
          <Field id="airtime-amount" label="Amount" inputMode="decimal" />
          <ErrorNote error={action.error} />
          {done ? <p role="status">{done}</p> : null}
          <button type="submit" disabled={action.busy}>
            Request top-up
          </button>
        </form>
      ) : null}
      <Requests tick={tick} />
    </Page>
  );
}

export function GiftCards() {
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/gift-cards/brands/', { params: { query: {} } })));
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const order = (brand_id: string, country: string, denomination: string) =>
    action.run(async () => {
      const placed = await unwrap(api.POST('/api/v1/gift-cards/orders/', { body: { brand_id, country, denomination } }));
      setDone(`Order recorded (${money(placed.denomination)}). Fulfilment is ${words(placed.fulfilment)}: no code is issued and nothing is charged yet.`);
    });
  return (
    <Page title="Gift cards" lead="Browse the catalogue. Orders are recorded; cards are not issued yet.">
      <ErrorNote error={error ?? action.error} />
      {done ? (
        <p class="card" role="status">
          {done}
        </p>
      ) : null}
      {!data && !error ? <Loading what="brands" /> : null}
      {data && !data.length ? <Empty>No gift cards on offer.</Empty> : null}
      <ul class="grid">
        {(data ?? []).map((brand) => (
          <li key={brand.id} class="card">
            <h2>{brand.name}</h2>
            <p>{words(brand.category)}</p>
            {brand.countries.slice(0, 2).map((c) => (
              <div class="actions" key={c.country}>
                {c.denominations.slice(0, 3).map((d) => (
                  <button
                    type="button"
                    class="secondary"
                    key={d}
                    onClick={() => void order(brand.id, c.country, d)}
                    aria-label={`Order a ${brand.name} card of ${d} ${c.currency} (${c.country})`}
                  >
                    {money({ amount: d, currency: c.currency })}
                  </button>
                ))}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </Page>
  );
}

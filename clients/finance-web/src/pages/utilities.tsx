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

type Catalogue = {
  operators: { code: string; name: string; country: string; plans: { id: string; name: string; price: { amount: string; currency: string } }[] }[];
  billers: { code: string; name: string; country: string; account_format: string; min_amount: { currency: string } }[];
};

/** A data bundle (a plan of the operator's) and a bill payment: recorded like top-ups, never dispatched yet. */
function DataAndBills(props: { catalogue: Catalogue; onDone: (message: string) => void }) {
  const action = useAction();
  const plans = props.catalogue.operators.flatMap((o) =>
    o.plans.map((p): [string, string] => [`${o.code}|${p.id}`, `${o.name}: ${p.name}, ${money(p.price)}`]),
  );
  const data = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const [operator, plan_id] = formValue(form, 'plan').split('|');
    void action.run(async () => {
      const request = await unwrap(api.POST('/api/v1/utilities/data/', { body: { operator, plan_id, phone_number: formValue(form, 'data-phone') } }));
      props.onDone(`Your data bundle is ${STATUS[request.status] ?? words(request.status)}.`);
    });
  };
  const bill = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const biller = props.catalogue.billers.find((b) => b.code === formValue(form, 'biller'));
    const value = parseAmount(formValue(form, 'bill-amount'), 2);
    if (!biller || !value) return action.setError(new Error('Choose a biller and enter an amount.'));
    const body = { biller: biller.code, account_number: formValue(form, 'bill-account'), amount: value, currency: biller.min_amount.currency };
    void action.run(async () => {
      const request = await unwrap(api.POST('/api/v1/utilities/bills/', { body }));
      props.onDone(`Your bill payment is ${STATUS[request.status] ?? words(request.status)}.`);
    });
  };
  return (
    <>
      {plans.length ? (
        <form class="card narrow" onSubmit={data} noValidate>
          <h2>Data bundle</h2>
          <Select id="plan" label="Plan" options={plans} />
          <Field id="data-phone" label="Phone number for the bundle" type="tel" autoComplete="tel" />
          <button type="submit" disabled={action.busy}>
            Request bundle
          </button>
        </form>
      ) : null}
      {props.catalogue.billers.length ? (
        <form class="card narrow" onSubmit={bill} noValidate>
          <h2>Pay a bill</h2>
          <Select id="biller" label="Biller" options={props.catalogue.billers.map((b): [string, string] => [b.code, `${b.name} (${b.country})`])} />
          <Field id="bill-account" label="Account or meter number" autoComplete="off" />
          <Field id="bill-amount" label="Amount to pay" inputMode="decimal" />
          <button type="submit" disabled={action.busy}>
            Request payment
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error} />
    </>
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
      {data ? <DataAndBills catalogue={data} onDone={(message) => (setDone(message), setTick(tick + 1))} /> : null}
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

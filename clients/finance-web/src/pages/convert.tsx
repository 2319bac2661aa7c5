/** Convert between currencies: a quote (rate, fee, what you get, when it expires), then confirm. */
import { useEffect, useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { money, parseAmount } from '../format';
import { to } from '../state';
import { Details, ErrorNote, Field, Page, Select, formValue, useAction } from '../ui/kit';
import { useCurrencies } from './send';

type Quote = paths['/api/v1/fx/quotes/']['post']['responses'][201]['content']['application/json'];
type Conversion = paths['/api/v1/fx/conversions/']['post']['responses'][201]['content']['application/json'];
const TARGETS = ['EUR', 'GBP', 'USD', 'NGN', 'GHS', 'KES', 'ZAR', 'CHF', 'UGX', 'XOF', 'JPY'];

function useSecondsLeft(until: string | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return until ? Math.max(0, Math.round((new Date(until).getTime() - now) / 1000)) : 0;
}

function QuoteView(props: { quote: Quote; onConverted: (c: Conversion) => void; onNew: () => void }) {
  const { quote } = props;
  const left = useSecondsLeft(quote.expires_at);
  const action = useAction();
  const [key] = useState(idempotencyKey);
  const convert = () =>
    action.run(async () =>
      props.onConverted(await unwrap(api.POST('/api/v1/fx/conversions/', { body: { quote_id: quote.id }, headers: { 'Idempotency-Key': key } }))),
    );
  return (
    <section class="card narrow" aria-labelledby="quote-title" id="quote">
      <h2 id="quote-title">Your quote</h2>
      <Details
        rows={[
          ['You pay', money(quote.source_amount)],
          ['Fee (included)', money(quote.fee)],
          ['Rate', `1 ${quote.source_amount.currency} = ${quote.rate} ${quote.target_amount.currency}`],
          ['You get', money(quote.target_amount)],
          ['Quote expires', left > 0 ? `in ${left} s` : 'expired'],
        ]}
      />
      <ErrorNote id="convert-error" error={action.error} />
      <div class="actions">
        {left > 0 ? (
          <button type="button" onClick={() => void convert()} disabled={action.busy}>
            Convert {money(quote.source_amount)}
          </button>
        ) : null}
        <button type="button" class="secondary" onClick={props.onNew}>
          {left > 0 ? 'Change' : 'Get a new quote'}
        </button>
      </div>
    </section>
  );
}

export function Convert() {
  const currencies = useCurrencies();
  const [quote, setQuote] = useState<Quote | null>(null);
  const [done, setDone] = useState<Conversion | null>(null);
  const [amountError, setAmountError] = useState<string | undefined>();
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const source_amount = parseAmount(formValue(form, 'source_amount'), 2);
    setAmountError(source_amount ? undefined : 'Enter an amount greater than zero, like 100.');
    if (!source_amount) return;
    const body = { source_currency: formValue(form, 'source_currency'), target_currency: formValue(form, 'target_currency'), source_amount };
    if (body.source_currency === body.target_currency) return action.setError(new Error('Choose two different currencies.'));
    void action.run(async () => setQuote(await unwrap(api.POST('/api/v1/fx/quotes/', { body }))));
  };
  if (done)
    return (
      <Page title="Convert">
        <section class="card narrow" id="conversion-done">
          <h2>Converted</h2>
          <p role="status">
            You converted {money(done.source_amount)} into {money(done.target_amount)}.
          </p>
          <Details
            rows={[
              ['Fee', money(done.fee)],
              ['Rate', done.rate],
              ['Reference', done.id],
            ]}
          />
          <a href={to('')}>Back to your balances</a>
        </section>
      </Page>
    );
  return (
    <Page title="Convert" lead="Change money from one currency to another. You see the rate and the fee before you confirm.">
      {quote ? (
        <QuoteView quote={quote} onConverted={setDone} onNew={() => setQuote(null)} />
      ) : (
        <form class="card narrow" onSubmit={submit} noValidate>
          <Select id="source_currency" label="From" options={currencies} />
          <Field id="source_amount" label="Amount to convert" inputMode="decimal" error={amountError} required />
          <Select id="target_currency" label="To" options={TARGETS} value="USD" />
          <ErrorNote id="quote-error" error={action.error} />
          <button type="submit" disabled={action.busy}>
            Get a quote
          </button>
        </form>
      )}
    </Page>
  );
}

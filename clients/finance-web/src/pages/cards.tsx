/** Virtual cards: issue one, reveal its number after re-entering the password, freeze and unfreeze, spend limits. */
import { useEffect, useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import type { paths } from '../api/schema';
import { money, parseAmount, words } from '../format';
import { Details, Empty, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Card = paths['/api/v1/cards/']['get']['responses'][200]['content']['application/json']['results'][number];

interface Revealed {
  number: string;
  cvc: string;
}

/** The full number and security code, only after the password is entered again (and the 2FA code when the account has one); hidden on request or after a minute. */
function Reveal(props: { card: Card }) {
  const [number, setNumber] = useState<Revealed | null>(null);
  const [open, setOpen] = useState(false);
  const [needOtp, setNeedOtp] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (!number) return;
    const timer = setTimeout(() => setNumber(null), 60_000);
    return () => clearTimeout(timer);
  }, [number]);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const otp = formValue(form, `otp-${props.card.id}`);
    void action.run(async () => {
      // the node checks the password (and code) itself, with the sign-in throttle
      const body = { password: formValue(form, `password-${props.card.id}`), ...(otp ? { otp } : {}) };
      let revealed;
      try {
        revealed = await unwrap(api.POST('/api/v1/cards/{id}/reveal/', { params: { path: { id: props.card.id } }, body }));
      } catch (failure) {
        if (failure instanceof ApiError && failure.code === 'otp_required') setNeedOtp(true);
        throw failure;
      }
      setNumber({ number: revealed.number.replace(/(\d{4})(?=\d)/g, '$1 '), cvc: revealed.cvc });
      setOpen(false);
    });
  };
  if (number)
    return (
      <div class="card-secrets">
        <p class="card-number" role="status">
          Card number: <code class="card-pan">{number.number}</code>
          <br />
          Security code (CVV): <code class="card-cvc">{number.cvc}</code>
        </p>
        <button type="button" class="secondary" onClick={() => setNumber(null)}>
          Hide card details
        </button>
      </div>
    );
  if (!open)
    return (
      <button type="button" class="secondary" onClick={() => setOpen(true)}>
        Show card details
      </button>
    );
  return (
    <form onSubmit={submit} class="narrow">
      <Field id={`password-${props.card.id}`} label="Enter your password to see the number and security code" type="password" autoComplete="current-password" />
      {needOtp ? (
        <Field id={`otp-${props.card.id}`} label="One-time code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" />
      ) : null}
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy}>
        Show details
      </button>
    </form>
  );
}

function CardView(props: { card: Card; onChange: (card: Card) => void }) {
  const { card } = props;
  const action = useAction();
  const toggle = () =>
    action.run(async () =>
      props.onChange(await unwrap(api.POST(`/api/v1/cards/{id}/${card.status === 'active' ? 'freeze' : 'unfreeze'}/`, { params: { path: { id: card.id } } }))),
    );
  const limits = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const read = (name: string) => {
      const text = formValue(form, name);
      return text ? parseAmount(text, 2) : null;
    };
    const spending_limits = { per_authorisation: read(`per-${card.id}`), daily: read(`daily-${card.id}`) };
    void action.run(async () =>
      props.onChange(await unwrap(api.PATCH('/api/v1/cards/{id}/', { params: { path: { id: card.id } }, body: { spending_limits } }))),
    );
  };
  return (
    <li class="card" data-card={card.id}>
      <h2>
        {card.brand} {card.masked_number}
      </h2>
      <Details
        rows={[
          ['Spends from', card.currency],
          ['Expires', `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`],
          [
            'Status',
            <span key="s" class="tag">
              {words(card.status)}
            </span>,
          ],
          ['Per payment limit', money(card.spending_limits.per_authorisation)],
          ['Daily limit', money(card.spending_limits.daily)],
        ]}
      />
      <Reveal card={card} />
      <div class="actions">
        <button type="button" class="secondary" onClick={() => void toggle()} disabled={action.busy}>
          {card.status === 'active' ? 'Freeze card' : 'Unfreeze card'}
        </button>
      </div>
      <form onSubmit={limits} class="filters" aria-label="Spend limits">
        <Field
          id={`per-${card.id}`}
          label="Per payment limit"
          inputMode="decimal"
          hint="Empty: no limit"
          defaultValue={card.spending_limits.per_authorisation?.amount ?? ''}
        />
        <Field id={`daily-${card.id}`} label="Daily limit" inputMode="decimal" hint="Empty: no limit" defaultValue={card.spending_limits.daily?.amount ?? ''} />
        <button type="submit" class="secondary">
          Save limits
        </button>
      </form>
      <ErrorNote error={action.error} />
    </li>
  );
}

export function Cards() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/cards/')));
  const action = useAction();
  const issue = (event: Event) => {
    event.preventDefault();
    const currency = formValue(event.currentTarget as HTMLFormElement, 'card-currency') as 'EUR';
    void action.run(async () => (await unwrap(api.POST('/api/v1/cards/', { body: { currency }, headers: { 'Idempotency-Key': idempotencyKey() } })), reload()));
  };
  return (
    <Page title="Cards" lead="Virtual cards that spend from your wallet.">
      <form class="card narrow" onSubmit={issue}>
        <Select id="card-currency" label="Currency of the new card" options={['EUR', 'GBP', 'USD']} />
        <ErrorNote error={action.error} />
        <button type="submit" disabled={action.busy}>
          Get a virtual card
        </button>
      </form>
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="your cards" /> : null}
      {data && !data.results.length ? <Empty>You have no card yet.</Empty> : null}
      <ul class="grid" id="cards">
        {(data?.results ?? []).map((card) => (
          <CardView key={card.id} card={card} onChange={reload} />
        ))}
      </ul>
    </Page>
  );
}

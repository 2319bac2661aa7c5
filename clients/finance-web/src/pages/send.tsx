/** Send money to another user (user name, e-mail or phone): form → confirmation → receipt. */
import { useState } from 'preact/hooks';
import { api, idempotencyKey, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { amount, dateTime, money, parseAmount } from '../format';
import { to } from '../state';
import { Details, ErrorNote, Field, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Transfer = paths['/api/v1/transfers/']['post']['responses'][201]['content']['application/json'];
interface Draft {
  recipient: string;
  amount: string;
  currency: string;
  note: string;
  key: string;
}

export function useCurrencies(): string[] {
  const { data } = useLoad(() => unwrap(api.GET('/api/balance/')));
  const held = data?.balances.map((b) => b.currency) ?? [];
  return held.length ? held : ['EUR', 'USD', 'GBP', 'NGN'];
}

function SendForm(props: { onReview: (draft: Draft) => void; draft: Draft | null }) {
  const currencies = useCurrencies();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const recipient = formValue(form, 'recipient');
    const value = parseAmount(formValue(form, 'amount'), 2);
    const found: Record<string, string> = {};
    if (!recipient) found.recipient = 'Enter a user name, e-mail or phone number.';
    if (!value) found.amount = 'Enter an amount greater than zero, like 12.50.';
    setErrors(found);
    if (recipient && value)
      props.onReview({ recipient, amount: value, currency: formValue(form, 'currency'), note: formValue(form, 'note'), key: idempotencyKey() });
  };
  return (
    <form class="card narrow" onSubmit={submit} noValidate>
      <Field
        id="recipient"
        label="To (user name, e-mail or phone)"
        autoComplete="off"
        defaultValue={props.draft?.recipient}
        error={errors.recipient}
        required
      />
      <Field id="amount" label="Amount" inputMode="decimal" defaultValue={props.draft?.amount} error={errors.amount} required />
      <Select id="currency" label="Currency" options={currencies} value={props.draft?.currency} />
      <Field id="note" label="Note (optional)" maxLength={140} defaultValue={props.draft?.note} />
      <button type="submit">Review</button>
    </form>
  );
}

/** Who the user name, e-mail or phone resolves to, asked of the node before the person confirms (throttled there). */
function RecipientName(props: { who: { username: string; verified: boolean } | undefined; typed: string }) {
  if (!props.who) return <span>{props.typed}</span>;
  const named = props.who.username !== props.typed;
  return (
    <span id="recipient-resolved">
      <strong>{props.who.username}</strong> <span class="tag">{props.who.verified ? 'verified' : 'not verified'}</span>
      {named ? <small> {props.typed}</small> : null}
    </span>
  );
}

function Confirm(props: { draft: Draft; onBack: () => void; onSent: (transfer: Transfer) => void }) {
  const action = useAction();
  const { draft } = props;
  const recipient = useLoad(() => unwrap(api.GET('/api/v1/transfers/recipient/', { params: { query: { reference: draft.recipient } } })), [draft.recipient]);
  const send = () =>
    action.run(async () => {
      const body = { recipient: draft.recipient, amount: draft.amount, currency: draft.currency, ...(draft.note ? { note: draft.note } : {}) };
      props.onSent(await unwrap(api.POST('/api/v1/transfers/', { body, headers: { 'Idempotency-Key': draft.key } })));
    });
  return (
    <section class="card narrow" aria-labelledby="confirm-title">
      <h2 id="confirm-title">Confirm the payment</h2>
      <Details
        rows={[
          ['To', <RecipientName key="to" who={recipient.data} typed={draft.recipient} />],
          ['Amount', amount(draft.amount, draft.currency)],
          ...(draft.note ? [['Note', draft.note] as [string, string]] : []),
        ]}
      />
      <ErrorNote id="recipient-error" error={recipient.error} />
      <p>The money leaves your account at once and cannot be called back. Check that this is the person you mean.</p>
      <ErrorNote id="send-error" error={action.error} />
      <div class="actions">
        <button type="button" onClick={() => void send()} disabled={action.busy || !recipient.data}>
          Send {amount(draft.amount, draft.currency)}
        </button>
        <button type="button" class="secondary" onClick={props.onBack}>
          Change
        </button>
      </div>
    </section>
  );
}

export function TransferReceipt(props: { transfer: Transfer; onAgain: () => void }) {
  const { transfer } = props;
  return (
    <section class="card narrow receipt" aria-labelledby="receipt-title" id="transfer-receipt">
      <h2 id="receipt-title">Sent</h2>
      <p role="status">
        You sent {money(transfer.amount)} to {transfer.recipient}.
      </p>
      <Details
        rows={[
          ['Amount', money(transfer.amount)],
          ['To', transfer.recipient],
          ['From', transfer.sender],
          ['Note', transfer.note ?? '—'],
          ['Status', transfer.status],
          ['Date', dateTime(transfer.created_at)],
          ['Reference', <code key="ref">{transfer.id}</code>],
        ]}
      />
      <div class="actions">
        <a class="button secondary" href={to('activity')}>
          See your activity
        </a>
        <button type="button" class="secondary" onClick={() => window.print()}>
          Print receipt
        </button>
        <button type="button" onClick={props.onAgain}>
          Send more
        </button>
      </div>
    </section>
  );
}

export function Send() {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [step, setStep] = useState<'form' | 'confirm' | 'done'>('form');
  const [transfer, setTransfer] = useState<Transfer | null>(null);
  return (
    <Page title="Send money" lead="To anyone with an account here, by user name, e-mail or phone number.">
      {step === 'form' ? <SendForm draft={draft} onReview={(next) => (setDraft(next), setStep('confirm'))} /> : null}
      {step === 'confirm' && draft ? <Confirm draft={draft} onBack={() => setStep('form')} onSent={(t) => (setTransfer(t), setStep('done'))} /> : null}
      {step === 'done' && transfer ? <TransferReceipt transfer={transfer} onAgain={() => (setDraft(null), setStep('form'))} /> : null}
    </Page>
  );
}

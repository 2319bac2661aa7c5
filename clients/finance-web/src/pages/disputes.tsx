/** Disputes: raise one from a transaction (its receipt links here), follow it, write to support, cancel it. */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client';
import { dateTime, money, words } from '../format';
import { to } from '../state';
import { Details, Empty, ErrorNote, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

const REASONS: [string, string][] = [
  ['unauthorised', 'I did not make this payment'],
  ['duplicate', 'I was charged twice'],
  ['not_received', 'I did not receive what I paid for'],
  ['not_as_described', 'It was not as described'],
  ['incorrect_amount', 'The amount is wrong'],
  ['other', 'Something else'],
];

function NewDispute(props: { transactionId: string }) {
  const location = useLocation();
  const receipt = useLoad(
    () => unwrap(api.GET('/api/v1/transactions/{id}/receipt/', { params: { path: { id: props.transactionId } } })),
    [props.transactionId],
  );
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const description = formValue(form, 'description');
    if (description.length < 10) return action.setError(new Error('Tell us what happened in a sentence or two (at least 10 characters).'));
    void action.run(async () => {
      const dispute = await unwrap(
        api.POST('/api/v1/disputes/', { body: { transaction_id: props.transactionId, reason: formValue(form, 'reason'), description } }),
      );
      location.route(to(`disputes/${dispute.id}`));
    });
  };
  return (
    <form class="card narrow" onSubmit={submit} noValidate aria-labelledby="new-dispute-title">
      <h2 id="new-dispute-title">Dispute a payment</h2>
      {receipt.data ? (
        <p>{`${money(receipt.data.amount)} on ${dateTime(receipt.data.created_at)}${receipt.data.counterparty ? ` to ${receipt.data.counterparty}` : ''}`}</p>
      ) : null}
      <ErrorNote error={receipt.error} />
      <Select id="reason" label="What went wrong?" options={REASONS} />
      <div class="field">
        <label for="description">Tell us what happened</label>
        <textarea id="description" name="description" rows={4} maxLength={2000} required />
      </div>
      <ErrorNote id="dispute-error" error={action.error} />
      <button type="submit" disabled={action.busy}>
        Raise the dispute
      </button>
    </form>
  );
}

export function Disputes() {
  const transaction = useLocation().query.transaction;
  const { data, error } = useLoad(() => unwrap(api.GET('/api/v1/disputes/', { params: { query: { limit: 50 } } })));
  return (
    <Page title="Disputes" lead="To dispute a payment, open it in your activity and choose “Dispute this payment”.">
      {transaction ? <NewDispute transactionId={transaction} /> : null}
      <h2>Your disputes</h2>
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="your disputes" /> : null}
      {data && !data.results.length ? <Empty>You have no disputes.</Empty> : null}
      <ul class="list" id="disputes">
        {(data?.results ?? []).map((d) => (
          <li key={d.id}>
            <a href={to(`disputes/${d.id}`)}>
              {money(d.amount)} · {words(d.reason)}
            </a>{' '}
            <span class="tag">{words(d.status)}</span> <small>{dateTime(d.created_at)}</small>
          </li>
        ))}
      </ul>
    </Page>
  );
}

export function Dispute(props: { id?: string }) {
  const id = props.id ?? '';
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/disputes/{id}/', { params: { path: { id } } })), [id]);
  const action = useAction();
  const [text, setText] = useState('');
  const send = (event: Event) => {
    event.preventDefault();
    if (!text.trim()) return action.setError(new Error('Write a message first.'));
    void action.run(
      async () => (await unwrap(api.POST('/api/v1/disputes/{id}/messages/', { params: { path: { id } }, body: { body: text.trim() } })), setText(''), reload()),
    );
  };
  const cancel = () => action.run(async () => (await unwrap(api.POST('/api/v1/disputes/{id}/cancel/', { params: { path: { id } } })), reload()));
  return (
    <Page title="Dispute">
      <ErrorNote error={error} />
      {data ? (
        <>
          <section class="card narrow" id="dispute">
            <p class="big">{money(data.amount)}</p>
            <Details
              rows={[
                [
                  'Status',
                  <span key="s" class="tag" id="dispute-status">
                    {words(data.status)}
                  </span>,
                ],
                ['Reason', words(data.reason)],
                ['What happened', data.description],
                ['Raised', dateTime(data.created_at)],
                ['Outcome', data.resolution_note ?? '—'],
              ]}
            />
            {data.status === 'open' ? (
              <button type="button" class="secondary" onClick={() => void cancel()}>
                Cancel the dispute
              </button>
            ) : null}
          </section>
          <h2>History</h2>
          <ol class="list">
            {data.history.map((h) => (
              <li key={h.at + h.to_status}>
                {dateTime(h.at)}: {words(h.to_status)}
                {h.note ? ` (${h.note})` : ''}
              </li>
            ))}
          </ol>
          <h2>Messages</h2>
          {!data.messages.length ? <Empty>No messages yet.</Empty> : null}
          <ul class="list">
            {data.messages.map((m) => (
              <li key={m.id}>
                <strong>{m.author_role === 'admin' ? 'Support' : 'You'}</strong> <small>{dateTime(m.created_at)}</small>
                <p>{m.body}</p>
              </li>
            ))}
          </ul>
          <form onSubmit={send} class="narrow">
            <div class="field">
              <label for="message">Write to support</label>
              <textarea id="message" rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
            </div>
            <ErrorNote error={action.error} />
            <button type="submit" disabled={action.busy}>
              Send message
            </button>
          </form>
        </>
      ) : !error ? (
        <Loading what="the dispute" />
      ) : null}
    </Page>
  );
}

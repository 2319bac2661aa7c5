/** Bank accounts: open a virtual IBAN (EUR, GBP) or NUBAN (NGN), and the details to share with whoever pays you. */
import { useState } from 'preact/hooks';
import { api, apiBase, clientHeaders, unwrap } from '../api/client';
import { moduleOn, useNode } from '../state';
import { amount, parseAmount } from '../format';
import { Details, Empty, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Account = {
  id: string;
  currency: string;
  rail: string;
  account_number: string;
  bank_code: string;
  bank_name: string;
  holder_name: string;
  sandbox: boolean;
};

/** What the bank code is called: the BIC of an EUR IBAN, the sort code of a GBP one, the CBN code of a NUBAN. */
const codeLabel = (a: Account) => (a.rail !== 'iban' ? 'Bank code' : a.currency === 'GBP' ? 'Sort code' : 'BIC');

const shareText = (a: Account) =>
  `${a.holder_name}\n${a.rail === 'iban' ? 'IBAN' : 'Account number'}: ${a.account_number}\n${codeLabel(a)}: ${a.bank_code}\n${a.bank_name}`;

/** The sandbox's test helper (not in the node's API document, so not in the typed client): POST …/simulate-incoming-transfer/. */
function simulateIncomingTransfer(id: string, value: string): Promise<{ amount: { amount: string; currency: string } }> {
  const call = async () => {
    const response = await fetch(`${apiBase()}/api/v1/virtual-accounts/${encodeURIComponent(id)}/simulate-incoming-transfer/`, {
      method: 'POST',
      headers: { ...clientHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: value }),
    });
    const body: unknown = await response.json().catch(() => ({}));
    return response.ok ? { data: body as { amount: { amount: string; currency: string } }, response } : { error: body, response };
  };
  return unwrap(call());
}

/** Sandbox only: the rail's simulated incoming transfer (as Wise's sandbox offers), so that money can arrive without a bank. */
function SimulateTransfer(props: { account: Account; onReceived: () => void }) {
  const action = useAction();
  const [received, setReceived] = useState<string | null>(null);
  const id = `simulate-${props.account.currency}`;
  const submit = (event: Event) => {
    event.preventDefault();
    const value = parseAmount(formValue(event.currentTarget as HTMLFormElement, id), 2);
    if (!value) return action.setError(new Error('Enter an amount greater than zero.'));
    void action.run(async () => {
      const credit = await simulateIncomingTransfer(props.account.id, value);
      setReceived(`${amount(credit.amount.amount, credit.amount.currency)} arrived in your wallet.`);
      props.onReceived();
    });
  };
  return (
    <form class="sandbox" onSubmit={submit} noValidate>
      <p>
        <small>Test mode: no real bank is connected. Simulate a transfer from a sender to this account.</small>
      </p>
      <Field id={id} label={`Amount (${props.account.currency})`} inputMode="decimal" defaultValue="100.00" />
      <ErrorNote error={action.error} />
      {received ? <p role="status">{received}</p> : null}
      <button type="submit" class="secondary" disabled={action.busy}>
        Simulate incoming transfer
      </button>
    </form>
  );
}

function AccountView(props: { account: Account; onReceived: () => void }) {
  const { account } = props;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const text = shareText(account);
    if (navigator.share) await navigator.share({ title: `My ${account.currency} account`, text }).catch(() => undefined);
    else
      await navigator.clipboard?.writeText(text).then(
        () => setCopied(true),
        () => undefined,
      );
  };
  return (
    <li class="card" data-currency={account.currency}>
      <h2>
        {account.currency} account ({account.rail === 'iban' ? 'IBAN' : 'NUBAN'})
      </h2>
      <Details
        rows={[
          ['Account holder', account.holder_name],
          [account.rail === 'iban' ? 'IBAN' : 'Account number', <code key="n">{account.account_number}</code>],
          [codeLabel(account), <code key="c">{account.bank_code}</code>],
          ['Bank', account.bank_name],
        ]}
      />
      <div class="actions">
        <button type="button" class="secondary" onClick={() => void copy()}>
          Share details
        </button>
        {copied ? <span role="status">Copied</span> : null}
      </div>
      {account.sandbox ? <SimulateTransfer account={account} onReceived={props.onReceived} /> : null}
    </li>
  );
}

export function Accounts() {
  const node = useNode();
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/virtual-accounts/')));
  const action = useAction();
  const held = new Set((data?.results ?? []).map((a) => a.currency));
  const currencies = [...(moduleOn(node, 'virtual_iban') ? ['EUR', 'GBP'] : []), ...(moduleOn(node, 'african_accounts') ? ['NGN'] : [])].filter(
    (c) => !held.has(c),
  );
  const open = (event: Event) => {
    event.preventDefault();
    const currency = formValue(event.currentTarget as HTMLFormElement, 'account-currency');
    void action.run(async () => (await unwrap(api.POST('/api/v1/virtual-accounts/', { body: { currency } })), reload()));
  };
  return (
    <Page title="Bank accounts" lead="Your own account details: money sent to them arrives in your wallet in that currency.">
      {currencies.length ? (
        <form class="card narrow" onSubmit={open}>
          <Select id="account-currency" label="Currency" options={currencies} />
          <ErrorNote error={action.error} />
          <button type="submit" disabled={action.busy}>
            Open an account
          </button>
        </form>
      ) : null}
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="your accounts" /> : null}
      {data && !data.results.length ? <Empty>You have no account details yet.</Empty> : null}
      <ul class="grid" id="virtual-accounts">
        {(data?.results ?? []).map((account) => (
          <AccountView key={account.id} account={account} onReceived={reload} />
        ))}
      </ul>
    </Page>
  );
}

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderSecrets } from '../../../subgraphs/finance/kernel/provider-secrets';
import type { Principal } from '../../../lib/principal';
import { signPayload } from '../../../subgraphs/finance/banking/domain/providers';
import { startAlpacaSandbox, type AlpacaSandbox } from '../../../subgraphs/finance/investing/sandbox/servers';
import { startBankingProvider } from '../../support/finance/banking-provider';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';

/**
 * Provider credentials from the admin console's encrypted records: no key in the environment, the
 * administrator saves them on /admin/node/providercredential/, and the banking and brokerage clients
 * webhookSignedWith them to the local providers at the next call (a change too, without a restart). The node hands
 * a record only to the service that owns the provider.
 */
const bankingKeys = { apiKey: 'sk_console_1', signingSecret: 'whsec_console_1' };
const brokerageKeys = { keyId: 'PKCONSOLE1', secretKey: 'console-secret-1' };
let banking: Awaited<ReturnType<typeof startBankingProvider>>;
let alpaca: AlpacaSandbox;
let t: TestApp;
let admin: AdminSession;

/** A card issuer and crypto exchange in one: answers their create calls and records each request's bearer key. */
const bearers: { path: string; authorization?: string }[] = [];
const issuerAndExchange = createServer((req, res) => {
  req.resume().on('end', () => {
    bearers.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const body =
      req.url === '/v1/issuing/cards'
        ? { id: 'ic_1', number: '4242424242424242', exp_month: 12, exp_year: 2030 }
        : { id: 'addr_1', address: 'bc1qexample', network: 'bitcoin' };
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});

beforeAll(async () => {
  // the providers check what they receive against these objects at each request: changing them rotates the keys
  await new Promise<void>((resolve) => issuerAndExchange.listen(0, '127.0.0.1', resolve));
  const peer = `http://127.0.0.1:${(issuerAndExchange.address() as AddressInfo).port}`;
  banking = await startBankingProvider(bankingKeys);
  alpaca = await startAlpacaSandbox({ assets: [{ symbol: 'AAPL', name: 'Apple Inc. Common Stock' }], keys: brokerageKeys });
  t = await startTestApp({
    BANKING_PROVIDER_URL: banking.url,
    BANKING_PROVIDER_TIMEOUT_MS: '2000',
    BROKERAGE_TRADING_URL: alpaca.url,
    BROKERAGE_DATA_URL: alpaca.url,
    CARD_ISSUER_URL: peer,
    CRYPTO_EXCHANGE_URL: peer,
    // set in the environment: it wins over the console's record
    CRYPTO_EXCHANGE_API_KEY: 'sk_exchange_from_env',
  });
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
});
afterAll(async () => {
  await t?.stop();
  await banking?.stop();
  await alpaca?.close();
  issuerAndExchange.close();
});

const { url } = surface(() => t.urls.finance);
type Module = 'banking' | 'investing' | 'cards' | 'crypto';
const secretsOf = (module: Module) => (t.app.services[module] as { providerSecrets: ProviderSecrets }).providerSecrets;

/** Saves a credential through the admin console's form and waits until the module has dropped what it kept (NOTIFY). */
async function save(module: Module, provider: string, name: string, secret: string) {
  const secrets = secretsOf(module);
  const before = secrets.evictions;
  const res = await adminPost(t, admin, '/admin/node/providercredential/', { provider, name, secret });
  expect([res.status, res.headers.get('location')]).toEqual([302, '/admin/node/providercredential/?saved=1']);
  await secrets.evictedAfter(before);
}

/** The provider/name pairs the system check app.W010 reports missing. */
async function missingCredentials(): Promise<string[]> {
  const w010 = (await t.app.services.node.node.checks()).find((c) => c.id === 'app.W010');
  return [...(w010?.msg.matchAll(/([a-z_]+\/[a-z_]+) \(/g) ?? [])].map((m) => m[1]);
}

async function verifiedUser() {
  const u = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  return login(t, u.username);
}

const openAccount = (token: string) =>
  http(url('/api/v1/virtual-accounts/'), {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ currency: 'EUR' }),
  });

const mobileMoneyDeposit = (token: string) =>
  http(url('/api/v1/mobile-money/deposits/'), {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amount: '50.00', currency: 'GHS', phone_number: '+233241234567' }),
  });

const as = (principal: Principal) => (provider: string, name: string) =>
  t.app.gateway
    .execute(
      { query: 'query($p: String!, $n: String!) { providerSecret(provider: $p, name: $n) }', variables: { p: provider, n: name } },
      { headers: {} },
      randomUUID(),
      principal,
    )
    .then((r) => r.body);

describe('the banking provider', () => {
  it('has no key until the console holds one, then receives the saved key and signature; a changed key works without a restart', async () => {
    const token = await verifiedUser();
    // neither the environment nor the console: nothing reaches the provider
    const before = banking.requests.length;
    expect((await openAccount(token)).status).toBe(502);
    expect(banking.requests.length).toBe(before);

    expect(await missingCredentials()).toEqual(expect.arrayContaining(['banking/api_key', 'banking/webhook_secret', 'card_issuer/api_key']));
    await save('banking', 'banking', 'api_key', bankingKeys.apiKey);
    await save('banking', 'banking', 'webhook_secret', bankingKeys.signingSecret);
    expect((await missingCredentials()).filter((c) => c.startsWith('banking/'))).toEqual([]);
    const opened = await openAccount(token);
    expect(opened.status).toBe(201);
    const seen = banking.requests.at(-1)!;
    expect([seen.path, seen.headers.authorization]).toEqual(['/v1/accounts', 'Bearer sk_console_1']);

    // the provider rotates the key: refused until the administrator saves the new one, then the next call carries it
    bankingKeys.apiKey = 'sk_console_2';
    expect((await mobileMoneyDeposit(token)).body.status).toBe('voided');
    await save('banking', 'banking', 'api_key', 'sk_console_2');
    expect((await mobileMoneyDeposit(token)).body.status).toBe('pending');
    expect([banking.requests.at(-1)!.path, banking.requests.at(-1)!.headers.authorization]).toEqual(['/collection/v1_0/requesttopay', 'Bearer sk_console_2']);
  });

  it('answers 502 and stores nothing when the rail issues an account number another account holds', async () => {
    // the rail issues the number it gave the first user of this file again
    const token = await verifiedUser();
    banking.fault('reissue');
    const res = await openAccount(token);
    expect([res.status, res.body.code]).toEqual([502, 'provider_unavailable']);
    const accounts = await http(url('/api/v1/virtual-accounts/'), { key: token });
    expect([accounts.status, accounts.body]).toEqual([200, expect.objectContaining({ results: [] })]);
  });

  it("verifies the provider's webhooks with the console's secret", async () => {
    const body = JSON.stringify({
      id: randomUUID(),
      type: 'credit.received',
      data: { account_number: 'DE00', amount: '1.00', currency: 'EUR', transaction_id: 'x' },
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const webhookSignedWith = (secret: string) =>
      http(url('/api/v1/webhooks/banking/iban/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-banking-timestamp': timestamp, 'x-banking-signature': `v1=${signPayload(secret, timestamp, body)}` },
        body,
      });
    expect((await webhookSignedWith('whsec_wrong')).status).toBe(401);
    expect((await webhookSignedWith(bankingKeys.signingSecret)).status).toBeLessThan(300);
  });
});

describe('the equities brokerage', () => {
  it('syncs with the key pair saved in the console, and app.I003 (no brokerage credentials) goes away', async () => {
    const checkIds = async () => (await t.app.services.node.node.checks()).map((c) => c.id);
    expect(await checkIds()).toContain('app.I003');
    const sync = () => t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });
    await expect(sync()).rejects.toThrow();

    await save('investing', 'equities_brokerage', 'key_id', brokerageKeys.keyId);
    await save('investing', 'equities_brokerage', 'secret_key', brokerageKeys.secretKey);
    expect(await sync()).toMatchObject({ synced: 1 });
    expect(await checkIds()).not.toContain('app.I003');

    brokerageKeys.secretKey = 'console-secret-2';
    await expect(sync()).rejects.toThrow();
    await save('investing', 'equities_brokerage', 'secret_key', 'console-secret-2');
    expect(await sync()).toMatchObject({ synced: 1 });
  });
});

describe('the card issuer and the crypto exchange', () => {
  it("use the console's key when the environment has none; a variable that is set wins over the record", async () => {
    const issue = () => t.app.services.cards.issuer.issueCard({ cardholder: 'u1', currency: 'EUR', idempotencyKey: randomUUID() });
    await expect(issue()).rejects.toMatchObject({ code: 'IMPROPERLY_CONFIGURED', status: 503 });
    await save('cards', 'card_issuer', 'api_key', 'sk_issuer_console');
    await issue();
    expect(bearers.at(-1)).toEqual({ path: '/v1/issuing/cards', authorization: 'Bearer sk_issuer_console' });

    await save('crypto', 'crypto_exchange', 'api_key', 'sk_exchange_console');
    await t.app.services.crypto.exchange.createDepositAddress({ asset: 'BTC', reference: randomUUID() });
    expect(bearers.at(-1)).toEqual({ path: '/v1/deposit-addresses', authorization: 'Bearer sk_exchange_from_env' });
  });
});

describe('least privilege', () => {
  it('hands a record only to the service that owns its provider', async () => {
    await save('investing', 'equities_brokerage', 'key_id', brokerageKeys.keyId);
    expect(await as({ kind: 'service', name: 'investing' })('equities_brokerage', 'key_id')).toEqual({ data: { providerSecret: brokerageKeys.keyId } });
    expect(await as({ kind: 'service', name: 'investing' })('equities_brokerage', 'unknown_name')).toEqual({ data: { providerSecret: null } });
    for (const [service, provider] of [
      ['cards', 'equities_brokerage'],
      ['investing', 'banking'],
      ['payments', 'banking'],
      ['cards', 'assistant'],
    ]) {
      const refused = await as({ kind: 'service', name: service })(provider, 'key_id');
      expect([service, provider, refused.errors?.[0]?.extensions?.code]).toEqual([service, provider, 'FORBIDDEN']);
      expect(JSON.stringify(refused)).not.toContain(brokerageKeys.keyId);
    }
    // a user's or an administrator's credential never reads a secret
    const token = await verifiedUser();
    const asUser = await http(`${t.urls.gateway}/graphql`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ providerSecret(provider: "equities_brokerage", name: "key_id") }' }),
    });
    expect(JSON.stringify(asUser.body)).not.toContain(brokerageKeys.keyId);
    expect(asUser.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('lists the provider/name pairs each module reads on the console page', async () => {
    const page = await http(url('/admin/node/providercredential/'), { headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    for (const text of ['banking', 'api_key', 'BANKING_PROVIDER_API_KEY', 'equities_brokerage', 'key_id', 'BROKERAGE_API_SECRET_KEY', 'card_issuer', 'kyc']) {
      expect(page.body).toContain(text);
    }
    // masked, never the secret
    expect(page.body).not.toContain(brokerageKeys.secretKey);
  });
});

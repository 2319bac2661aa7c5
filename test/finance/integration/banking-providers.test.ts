import { isValidIBAN } from 'ibantools';
import { composeIban, composeNuban, isValidNuban, normaliseIban, nubanCheckDigit } from '../../../subgraphs/finance/banking/domain/account-numbers';
import { HttpMobileMoney, HttpProviderClient, HttpRail, HttpRamp, ProviderError, SandboxRail } from '../../../subgraphs/finance/banking/domain/providers';
import { verifyWebhook } from '../../../subgraphs/finance/banking/domain/webhooks';
import { signPayload } from '../../../subgraphs/finance/banking/domain/providers';
import { startBankingProvider } from '../../support/finance/banking-provider';

/** The banking providers' HTTP clients against a local server speaking their protocol; account-number formats. */
const API_KEY = 'sk_test_local';
const SECRET = 'whsec_local';
let provider: Awaited<ReturnType<typeof startBankingProvider>>;

beforeAll(async () => {
  provider = await startBankingProvider({ apiKey: API_KEY, signingSecret: SECRET });
});
afterAll(() => provider?.stop());

const client = (overrides: { apiKey?: string } = {}) =>
  new HttpProviderClient({
    baseUrl: provider.url,
    credentials: async () => ({ apiKey: overrides.apiKey ?? API_KEY, signingSecret: SECRET }),
    // long enough for a loaded machine (a slower answer is retried and recorded twice), short for the stall test
    timeoutMs: 2000,
    attempts: 3,
  });

describe('account numbers', () => {
  it('computes ISO 13616 check digits and the NUBAN check digit as the registries do', () => {
    // the IBAN registry's examples
    expect(composeIban('DE', '370400440532013000')).toBe('DE89370400440532013000');
    expect(composeIban('GB', 'NWBK60161331926819')).toBe('GB29NWBK60161331926819');
    expect(normaliseIban('gb29 nwbk 6016 1331 9268 19')).toBe('GB29NWBK60161331926819');
    expect(normaliseIban('GB28NWBK60161331926819')).toBeUndefined();
    // CBN's worked example: bank 011, serial 000001457 → 0000014579
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
    expect(composeNuban('011', '000001457')).toBe('0000014579');
    expect(isValidNuban('011', '0000014579')).toBe(true);
    expect(isValidNuban('011', '0000014578')).toBe(false);
    expect(isValidNuban('058', '0000014579')).toBe(false);
  });

  it('issues valid IBANs and NUBANs from the sandbox, the same for a retried reference', async () => {
    const rail = new SandboxRail();
    const eur = await rail.issueAccount({ reference: 'r1', currency: 'EUR', holderName: 'x' });
    const gbp = await rail.issueAccount({ reference: 'r1', currency: 'GBP', holderName: 'x' });
    const ngn = await rail.issueAccount({ reference: 'r1', currency: 'NGN', holderName: 'x' });
    expect([isValidIBAN(eur.accountNumber), isValidIBAN(gbp.accountNumber), isValidNuban(ngn.bankCode, ngn.accountNumber)]).toEqual([true, true, true]);
    expect(await rail.issueAccount({ reference: 'r1', currency: 'EUR', holderName: 'x' })).toEqual(eur);
    await expect(rail.issueAccount({ reference: 'r1', currency: 'USD', holderName: 'x' })).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('webhook signatures', () => {
  it('accepts the signature over timestamp and raw body within the window, any of several v1 entries; refuses anything else', () => {
    const now = Date.now();
    const ts = String(Math.floor(now / 1000));
    const body = '{"id":"evt_1"}';
    const good = signPayload(SECRET, ts, body);
    expect(() => verifyWebhook(SECRET, body, ts, `v1=${good}`, now)).not.toThrow();
    expect(() => verifyWebhook(SECRET, body, ts, `v1=${'0'.repeat(64)}, v1=${good}`, now)).not.toThrow();
    for (const [payload, timestamp, signature] of [
      [`${body} `, ts, `v1=${good}`],
      [body, String(Number(ts) + 1), `v1=${good}`],
      [body, ts, `v0=${good}`],
      [body, ts, 'v1=zz'],
      [body, ts, null],
      [body, null, `v1=${good}`],
    ] as const) {
      expect(() => verifyWebhook(SECRET, payload, timestamp, signature, now)).toThrow(
        expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_INVALID', status: 401 }),
      );
    }
    expect(() => verifyWebhook(SECRET, body, ts, `v1=${good}`, now + 301_000)).toThrow(expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_INVALID' }));
  });
});

describe('the HTTP clients against a local provider', () => {
  it('signs each request, sends the reference as Idempotency-Key, retries 503 and timeouts with the same key', async () => {
    const rail = new HttpRail(client());
    provider.fault('fail', 'stall');
    const before = provider.requests.length;
    const account = await rail.issueAccount({ reference: 'ref-123', currency: 'EUR', holderName: 'ada' });
    expect(isValidIBAN(account.accountNumber)).toBe(true);
    const seen = provider.requests.slice(before);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.headers['idempotency-key']))).toEqual(new Set(['ref-123']));
    expect(seen[0].body).toEqual({ reference: 'ref-123', currency: 'EUR', holder_name: 'ada' });
  });

  it("does not retry the provider's refusal (4xx), and gives up after the attempts with a ProviderError", async () => {
    const rail = new HttpRail(client());
    const before = provider.requests.length;
    await expect(rail.issueAccount({ reference: 'ref-usd', currency: 'USD', holderName: 'ada' })).rejects.toThrow(/refused \(400\)/);
    expect(provider.requests.length - before).toBe(1);
    provider.fault('fail', 'fail', 'fail');
    await expect(
      rail.sendTransfer({ reference: 'ref-t', amount: '1.00', currency: 'NGN', bankCode: '011', accountNumber: '0000014579', narration: '' }),
    ).rejects.toBeInstanceOf(ProviderError);
    const wrongKey = new HttpRail(client({ apiKey: 'wrong' }));
    await expect(
      wrongKey.sendTransfer({ reference: 'ref-k', amount: '1.00', currency: 'NGN', bankCode: '011', accountNumber: '0000014579', narration: '' }),
    ).rejects.toThrow(/refused \(401\)/);
  });

  it('speaks MoMo: requesttopay and transfer with MSISDN parties and externalId, answered PENDING', async () => {
    const momo = new HttpMobileMoney(client());
    const before = provider.requests.length;
    const request = { referenceId: '6f1c3a52-0f4e-4a57-9f35-8d2b1f0c9e11', amount: '50.00', currency: 'GHS', msisdn: '+233241234567', note: 'deposit' };
    expect(await momo.requestToPay(request)).toEqual({ status: 'PENDING' });
    expect(await momo.transfer(request)).toEqual({ status: 'PENDING' });
    const [pay, out] = provider.requests.slice(before);
    expect([pay.path, pay.body.payer, pay.body.externalId]).toEqual([
      '/collection/v1_0/requesttopay',
      { partyIdType: 'MSISDN', partyId: '233241234567' },
      request.referenceId,
    ]);
    expect([out.path, out.body.payee]).toEqual(['/disbursement/v1_0/transfer', { partyIdType: 'MSISDN', partyId: '233241234567' }]);
  });

  it('speaks the ramp: a quote, then an order carrying our reference', async () => {
    const ramp = new HttpRamp(client());
    expect(await ramp.quote({ fiatCurrency: 'EUR', asset: 'BTC' })).toEqual({ price: '60000.5' });
    const before = provider.requests.length;
    const order = await ramp.execute({
      reference: 'ref-ramp',
      direction: 'on',
      fiatCurrency: 'EUR',
      fiatAmount: '600.00',
      asset: 'BTC',
      assetAmount: '0.00999991',
    });
    expect(order.providerReference).toMatch(/^rmp_/);
    const [sent] = provider.requests.slice(before);
    expect([sent.path, sent.headers['idempotency-key'], sent.body]).toEqual([
      '/v1/ramp/orders',
      'ref-ramp',
      { reference: 'ref-ramp', direction: 'on', fiat_currency: 'EUR', fiat_amount: '600.00', asset: 'BTC', asset_amount: '0.00999991' },
    ]);
  });
});

import { amount, describeLine, money } from './src/format';

describe('the web client shows money with the currency’s decimals', () => {
  it.each([
    ['230.099999999', 'USD', '$230.10'],
    ['187.125', 'USD', '$187.13'],
    ['187.124', 'USD', '$187.12'],
    ['42', 'EUR', '€42.00'],
    ['1234.5', 'GBP', '£1,234.50'],
    ['-0.005', 'USD', '-$0.01'],
    ['1500.4', 'JPY', '¥1,500'],
    ['0.12345678', 'BTC', '0.12345678 BTC'],
  ])('%s %s → %s', (decimal, currency, shown) => {
    expect(amount(decimal, currency)).toBe(shown);
  });

  it('money() and amount() are the same formatter; no value is a dash', () => {
    expect(money({ amount: '230.099999999', currency: 'USD' })).toBe(amount('230.099999999', 'USD'));
    expect(money(null)).toBe('—');
  });

  it('a value that is no decimal is shown as it came, not as NaN', () => {
    expect(amount('abc', 'USD')).toBe('abc USD');
  });
});

describe('activity lines name the other party, not ledger codes', () => {
  it.each([
    [{ direction: 'debit', code: 'transfer', description: 'Transfer', counterparty: 'tom_b' }, 'Transfer to tom_b'],
    [{ direction: 'credit', code: 'transfer', description: 'Transfer', counterparty: 'ann' }, 'Transfer from ann'],
    [{ direction: 'debit', code: 'investing:order_reserve', description: null, counterparty: null }, 'Order reserve'],
    [{ direction: 'credit', code: 'deposit', counterparty: 'Sandbox Bank' }, 'Deposit from Sandbox Bank'],
    [
      { direction: 'debit', code: 'card_authorisation', description: 'Card payment at Coffee Shop', counterparty: 'Coffee Shop' },
      'Card payment at Coffee Shop',
    ],
  ] as const)('%j → %s', (line, text) => {
    expect(describeLine(line)).toBe(text);
  });
});

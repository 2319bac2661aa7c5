import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { adminPost, auditDelivered, installValidLicence } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';
import { moneyMoves, type Customer, type Operator } from '../../support/finance/money';

/**
 * The test that searches: a model-based property test over the real services, gateway and
 * database. Random sequences of actions by end users, support staff and superusers — deposits,
 * transfers, a payee spending all it holds, disputes, reviews, resolutions, shop orders, cancellations,
 * points redemption, FX conversions, adjustments proposed and approved, and concurrent duplicates of
 * these, a dispute raised again while it is resolved — and after each step:
 *
 * 1. conservation: per currency, what all accounts but the funding account hold equals what entered
 *    from outside (the deposits);
 * 2. a payment is given back at most once: the transfers that name it in `reverses` move at most its amount;
 * 3. a person's balance rises from someone else's money only by the decision of operators entitled to it
 *    (who decided is the model's record of the operators' successful requests and of the roles it gave
 *    them, not the node's): a money decision (a dispute resolved, an order cancelled, an adjustment
 *    approved) succeeds only for a superuser who is no party of it; every dispute refund posted has such
 *    a decision behind it; and platform money (the dispute-loss or adjustments account) credited to a
 *    person was decided by two different operators, neither of them the credited person nor a party of
 *    the transfer;
 * 4. no request answered a 5xx;
 * and after each run: every successful operator decision has its audit row; the ledger's counters and
 * bounds (test/support/finance/ledger.ts).
 *
 * Each run is judged on its own: its model (payments, disputes, decisions) starts empty and its rules
 * look at what was held when it began and at its own postings, so fast-check can shrink a failing run
 * to a shorter one (within SHRINK_MS; what the node keeps from earlier runs is people and balances,
 * which each run tops up).
 *
 * Runs: fixed seeds plus one random seed (printed; MONEY_PROPERTY_SEED reruns one), MONEY_PROPERTY_RUNS runs each.
 */
let t: TestApp<'finance'>;
let m: ReturnType<typeof moneyMoves>;
let people: (Customer | (Operator & { token: string }))[];
let operators: (Operator & { token: string })[];

const RUNS = Number(process.env.MONEY_PROPERTY_RUNS ?? 6);
/** How long fast-check may look for a shorter failing run once one failed (a passing seed never gets near it). */
const SHRINK_MS = 120_000;
const SEEDS = process.env.MONEY_PROPERTY_SEED ? [Number(process.env.MONEY_PROPERTY_SEED)] : [32, 2026, Math.floor(Math.random() * 2 ** 31)];

beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t);
  m = moneyMoves(t);
  const support = await m.operator('support');
  const [x, y] = [await m.operator('superuser'), await m.operator('superuser')];
  operators = [support, x, y];
  people = [await m.customer(), await m.customer(), await m.customer(), support, x, y];
}, 120_000);
afterAll(() => t?.stop());

type Action =
  | { k: 'deposit'; p: number; cents: number }
  | { k: 'transfer'; from: number; to: number; cents: number; dup: boolean }
  | { k: 'spend'; n: number; to: number }
  | { k: 'dispute'; n: number; dup: boolean }
  | { k: 'case'; n: number; op: number; other: number; spent: boolean; to: number }
  | { k: 'review'; op: number; d: number }
  | { k: 'resolve'; op: number; op2: number; d: number; dup: boolean }
  | { k: 'raiseWhileResolving'; op: number; n: number }
  | { k: 'order'; p: number; cents: number }
  | { k: 'cancel'; op: number; o: number; dup: boolean }
  | { k: 'redeem'; p: number }
  | { k: 'fx'; p: number; cents: number }
  | { k: 'propose'; op: number; p: number; cents: number; other: number | null }
  | { k: 'approve'; op: number; op2: number; a: number; dup: boolean };

const idx = fc.nat({ max: 5 });
const op = fc.nat({ max: 2 });
/** Another operator than `op`: (op + 1 + other) mod 3 (a second person, whatever their role). */
const other = fc.nat({ max: 1 });
const another = (o: number, k: number) => (o + 1 + k) % operators.length;
const cents = fc.integer({ min: 100, max: 5000 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ k: fc.constant('deposit' as const), p: idx, cents: fc.integer({ min: 2000, max: 20000 }) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('transfer' as const), from: idx, to: idx, cents, dup: fc.boolean() }) },
  // the payee of a recent payment spends all it holds: a refund of that payment comes from the platform's dispute losses
  { weight: 3, arbitrary: fc.record({ k: fc.constant('spend' as const), n: fc.nat({ max: 3 }), to: idx }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('dispute' as const), n: fc.nat({ max: 3 }), dup: fc.boolean() }) },
  // a whole case at once (raised, reviewed, resolved, and resolved by another operator if the first only proposed the
  // refund), on a payment whose payee may have spent it all first
  { weight: 4, arbitrary: fc.record({ k: fc.constant('case' as const), n: fc.nat({ max: 3 }), op, other, spent: fc.boolean(), to: idx }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('review' as const), op, d: fc.nat({ max: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('resolve' as const), op, op2: op, d: fc.nat({ max: 3 }), dup: fc.boolean() }) },
  // a superuser's resolution (support staff's would be refused before it raced anything)
  { weight: 4, arbitrary: fc.record({ k: fc.constant('raiseWhileResolving' as const), op: fc.integer({ min: 1, max: 2 }), n: fc.nat({ max: 3 }) }) },
  // up to 120.00: an order of 100 or more earns the points one redemption needs
  { weight: 2, arbitrary: fc.record({ k: fc.constant('order' as const), p: idx, cents: fc.integer({ min: 100, max: 12000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), op, o: fc.nat({ max: 3 }), dup: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('redeem' as const), p: idx }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('fx' as const), p: idx, cents }) },
  // proposed, and approved by another operator at once (or later, by an `approve`)
  { weight: 2, arbitrary: fc.record({ k: fc.constant('propose' as const), op, p: idx, cents, other: fc.option(other, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('approve' as const), op, op2: op, a: fc.nat({ max: 3 }), dup: fc.boolean() }) },
);

/**
 * A successful operator request on `target`: handling a case (`case`), proposing platform money
 * (`propose`: support staff may), or deciding money (`decide`: resolving a dispute, cancelling an order,
 * approving an adjustment), with the people (indices) it is about.
 */
interface Decision {
  op: number;
  target: string;
  kind: 'case' | 'propose' | 'decide';
  parties: number[];
}

/**
 * A run: 15 to 40 actions. Shrinking a failing run leaves actions out (null: skipped, which the array's
 * minimum length would not allow by removing them) and keeps each as it was: every candidate is a run
 * of seconds, none is spent on smaller amounts.
 */
const actions = fc.array(fc.option(fc.noShrink(action), { nil: null, freq: 1000 }), { minLength: 15, maxLength: 40 });

/** What the model knows of a run: what entered, what can be disputed, and who decided what (the oracle of rule 3). */
interface Model {
  deposits: Map<string, bigint>;
  /** payee: a person's index; none for a merchant */
  payments: { id: string; payer: number; payee?: number }[];
  disputes: { id: string; payment: string; payer: number; payee?: number }[];
  orders: { id: string; user: number }[];
  adjustments: { id: string; proposer: number; user: number }[];
  decisions: Decision[];
  statuses: number[];
  /** when this run began: rules 2 and 3 judge the postings made since */
  since: Date;
}

/** What a seed's runs answered, for the summary: `action status` → count. */
interface Summary {
  seen: Map<string, number>;
  steps: number;
  runs: number;
}

const money = (c: number) => (c / 100).toFixed(2);
const recent = <T>(list: T[], n: number, keep: (x: T) => boolean = () => true) => list.filter(keep).reverse()[n];
const twice = <T>(dup: boolean, f: () => Promise<T>) => Promise.all(dup ? [f(), f()] : [f()]);

/** An operator's request on `target` answered `status`; a successful one is a decision (audited). */
function decided(model: Model, op: number, target: string, status: number, kind: Decision['kind'], parties: (number | undefined)[]) {
  model.statuses.push(status);
  if (status === 302) model.decisions.push({ op, target, kind, parties: parties.filter((p) => p !== undefined) });
}

/** The operators (indices) whose decision about money on `target` succeeded. */
const decidersOf = (model: Model, target: string) => new Set(model.decisions.filter((d) => d.target === target && d.kind !== 'case').map((d) => d.op));

async function step(model: Model, a: Action): Promise<void> {
  const s = model.statuses;
  switch (a.k) {
    case 'deposit':
      await m.deposit(people[a.p].id, money(a.cents));
      model.deposits.set('EUR', (model.deposits.get('EUR') ?? 0n) + BigInt(a.cents));
      return;
    case 'transfer': {
      if (a.from === a.to) return;
      for (const r of await twice(a.dup, () => m.transfer(people[a.from], people[a.to], money(a.cents)))) {
        s.push(r.status);
        if (r.status === 201) model.payments.push({ id: r.body.id as string, payer: a.from, payee: a.to });
      }
      return;
    }
    case 'spend':
      return spend(model, recent(model.payments, a.n)?.payee, a.to);
    case 'dispute': {
      const payment = recent(model.payments, a.n);
      if (!payment) return;
      for (const r of await twice(a.dup, () => m.openDispute(people[payment.payer], payment.id))) {
        s.push(r.status);
        if (r.status === 201) model.disputes.push({ id: r.body.id as string, payment: payment.id, payer: payment.payer, payee: payment.payee });
      }
      return;
    }
    case 'case': {
      const payment = recent(model.payments, a.n);
      if (!payment) return;
      if (a.spent) await spend(model, payment.payee, a.to);
      const r = await m.openDispute(people[payment.payer], payment.id);
      s.push(r.status);
      if (r.status !== 201) return;
      const d = { id: r.body.id as string, payment: payment.id, payer: payment.payer, payee: payment.payee };
      model.disputes.push(d);
      decided(model, a.op, d.id, (await m.review(operators[a.op], d.id)).status, 'case', []);
      decided(model, a.op, d.id, (await m.resolve(operators[a.op], d.id)).status, 'decide', [d.payer, d.payee]);
      const second = another(a.op, a.other);
      if ((await m.dispute(people[d.payer], d.id)).status === 'under_review')
        decided(model, second, d.id, (await m.resolve(operators[second], d.id)).status, 'decide', [d.payer, d.payee]);
      return;
    }
    case 'review': {
      const d = recent(model.disputes, a.d);
      if (d) decided(model, a.op, d.id, (await m.review(operators[a.op], d.id)).status, 'case', []);
      return;
    }
    case 'resolve': {
      const d = recent(model.disputes, a.d);
      if (!d) return;
      const ops = a.dup ? [a.op, a.op2] : [a.op];
      const res = await Promise.all(ops.map((o) => m.resolve(operators[o], d.id)));
      res.forEach((r, i) => decided(model, ops[i], d.id, r.status, 'decide', [d.payer, d.payee]));
      return;
    }
    case 'raiseWhileResolving':
      return raiseWhileResolving(model, a.op, a.n);
    case 'order':
      return order(model, a.p, a.cents);
    case 'cancel': {
      const o = recent(model.orders, a.o);
      if (!o) return;
      for (const r of await twice(a.dup, () => adminPost(t, operators[a.op].session, `/admin/commerce/order/${o.id}/cancel/`, {})))
        decided(model, a.op, o.id, r.status, 'decide', [o.user]);
      return;
    }
    case 'redeem':
      s.push((await m.send('POST', '/api/v1/rewards/redeem/', people[a.p].token, { points: 100, currency: 'EUR' })).status);
      return;
    case 'fx':
      return convert(model, a.p, a.cents);
    case 'propose': {
      const r = await adminPost(t, operators[a.op].session, '/admin/adjustments/', {
        user: people[a.p].username,
        currency: 'EUR',
        amount: money(a.cents),
        direction: 'credit',
        reason: 'property test',
      });
      s.push(r.status);
      if (r.status !== 302) return;
      const [row] = await t.app.services.ledger.adjustments.list(1);
      model.adjustments.push({ id: row.id, proposer: a.op, user: a.p });
      decided(model, a.op, row.id, 302, 'propose', [a.p]);
      if (a.other === null) return;
      const second = another(a.op, a.other);
      decided(model, second, row.id, (await adminPost(t, operators[second].session, `/admin/adjustments/${row.id}/approve/`, {})).status, 'decide', [a.p]);
      return;
    }
    case 'approve': {
      const adj = recent(model.adjustments, a.a);
      if (!adj) return;
      const ops = a.dup ? [a.op, a.op2] : [a.op];
      const res = await Promise.all(ops.map((o) => adminPost(t, operators[o].session, `/admin/adjustments/${adj.id}/approve/`, {})));
      res.forEach((r, i) => decided(model, ops[i], adj.id, r.status, 'decide', [adj.user]));
      return;
    }
  }
}

/** Person `from` spends all it holds (paying `to`: spent elsewhere, not a payment the model's people dispute). */
async function spend(model: Model, from: number | undefined, to: number) {
  if (from === undefined || from === to) return;
  const all = await m.balance(people[from].token);
  if (Number(all) > 0) model.statuses.push((await m.transfer(people[from], people[to], all)).status);
}

/**
 * A dispute on the n-th recent payment (its live one, or one its payer raises now) is resolved by an
 * operator — reviewed first if it is open — while the payer raises another one on the same payment again
 * and again; any that got in is resolved too.
 */
async function raiseWhileResolving(model: Model, opIndex: number, n: number) {
  const payment = recent(model.payments, n);
  if (!payment) return;
  let d = recent(model.disputes, 0, (x) => x.payment === payment.id);
  if (!d || !['open', 'under_review'].includes((await t.app.services.commerce.disputes.dispute(d.id)).status)) {
    const r = await m.openDispute(people[payment.payer], payment.id);
    model.statuses.push(r.status);
    if (r.status !== 201) return;
    d = { id: r.body.id as string, payment: payment.id, payer: payment.payer, payee: payment.payee };
    model.disputes.push(d);
  }
  const { id, payer, payee } = d;
  if ((await t.app.services.commerce.disputes.dispute(id)).status === 'open')
    decided(model, opIndex, id, (await m.review(operators[opIndex], id)).status, 'case', []);
  let resolving = true;
  const raised: { status: number; body: { id?: string } }[] = [];
  // four raisers, one request in flight each (the node's pool is bounded), for as long as the resolution runs:
  // the window in which a second dispute gets in is the end of the resolution, whenever that comes
  const raiser = async () => {
    while (resolving) raised.push(await m.openDispute(people[payer], payment.id, true));
  };
  const raising = Promise.all([1, 2, 3, 4].map(raiser));
  decided(model, opIndex, id, (await m.resolve(operators[opIndex], id)).status, 'decide', [payer, payee]);
  resolving = false;
  await raising;
  for (const r of raised) {
    model.statuses.push(r.status);
    if (r.status !== 201) continue;
    model.disputes.push({ id: r.body.id!, payment: payment.id, payer, payee });
    decided(model, opIndex, r.body.id!, (await m.review(operators[opIndex], r.body.id!)).status, 'case', []);
    for (const o of [opIndex, (opIndex + 1) % operators.length])
      decided(model, o, r.body.id!, (await m.resolve(operators[o], r.body.id!)).status, 'decide', [payer, payee]);
  }
}

async function order(model: Model, p: number, cents: number) {
  const u = people[p];
  const product = await t.app.services.commerce.shop.createProduct({
    name: `P ${randomUUID().slice(0, 6)}`,
    description: 'A thing',
    price: money(cents),
    currency: 'EUR',
    stock: 5,
  });
  model.statuses.push((await m.send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: product.id, quantity: 1 })).status);
  const checkout = await m.send('POST', '/api/v1/shop/checkout/', u.token);
  model.statuses.push(checkout.status);
  if (checkout.status !== 201 && checkout.status !== 200) return;
  const paid = await m.send('POST', `/api/v1/shop/orders/${checkout.body.id}/pay/`, u.token);
  model.statuses.push(paid.status);
  model.orders.push({ id: checkout.body.id as string, user: p });
  if (paid.status === 200) model.payments.push({ id: paid.body.payment_transaction_id as string, payer: p });
}

async function convert(model: Model, p: number, cents: number) {
  const u = people[p];
  const quote = await m.send('POST', '/api/v1/fx/quotes/', u.token, { source_currency: 'EUR', target_currency: 'GBP', source_amount: money(cents) });
  model.statuses.push(quote.status);
  if (quote.status === 201) model.statuses.push((await m.send('POST', '/api/v1/fx/conversions/', u.token, { quote_id: quote.body.id })).status);
}

const pool = () => t.app.services.ledger.store.pool;

/** Rules 1–4, after each step. */
async function check(model: Model): Promise<void> {
  // 1. conservation
  const { rows: held } = await pool().query<{ currency: string; held: string }>(
    `SELECT currency, sum(credits_posted - debits_posted)::text AS held FROM ledger.account WHERE NOT (owner_type = 'system' AND code = 'funding') GROUP BY 1`,
  );
  for (const r of held) expect([r.currency, BigInt(r.held)]).toEqual([r.currency, model.deposits.get(r.currency) ?? 0n]);
  // 2. a payment given back at most once
  const { rows: over } = await pool().query(
    `SELECT o.id, o.amount::text, x.back::text FROM ledger.transfer o
       JOIN (SELECT metadata->>'reverses' AS original, sum(amount) AS back FROM ledger.transfer WHERE code <> 'reward_reversal' AND metadata ? 'reverses' GROUP BY 1) x
         ON x.original = o.id::text
      WHERE x.back > o.amount AND o.created_at >= $1`,
    [model.since],
  );
  expect(over).toEqual([]);
  // 3. money decided only by those entitled to it: a superuser who is no party decides (support staff
  // handle cases and may propose an adjustment, never decide) …
  for (const d of model.decisions.filter((x) => x.kind === 'decide')) {
    const who = operators[d.op];
    expect({ decision: d.target, by: who.username, superuser: who.role === 'superuser', party: d.parties.some((p) => people[p].id === who.id) }).toEqual({
      decision: d.target,
      by: who.username,
      superuser: true,
      party: false,
    });
  }
  // … every dispute refund posted has a successful decision behind it, and platform money credited to a
  // person the decisions of two operators, neither the person nor a party of the transfer
  const { rows: credits } = await pool().query<{ id: string; credited: string; target: string; payee: string | null; platform: boolean }>(
    `SELECT t.id, c.owner_id AS credited, COALESCE(t.metadata->>'disputeId', t.metadata->>'adjustment') AS target,
            (SELECT pa.owner_id FROM ledger.transfer o JOIN ledger.account pa ON pa.id = o.credit_account_id
              WHERE o.id::text = t.metadata->>'reverses' AND pa.owner_type = 'user') AS payee,
            (d.owner_type = 'system' AND d.code IN ('adjustments', 'commerce:dispute_losses')) AS platform
       FROM ledger.transfer t JOIN ledger.account d ON d.id = t.debit_account_id JOIN ledger.account c ON c.id = t.credit_account_id
      WHERE c.owner_type = 'user' AND t.created_at >= $1
        AND ((d.owner_type = 'system' AND d.code IN ('adjustments', 'commerce:dispute_losses')) OR t.code IN ('dispute_reversal', 'dispute_loss'))`,
    [model.since],
  );
  for (const c of credits) {
    const persons = [...decidersOf(model, c.target)].map((o) => operators[o].id);
    const parties = [c.credited, c.payee].filter(Boolean);
    expect({
      credit: c.id,
      decided: persons.length > 0,
      twoPeople: !c.platform || new Set(persons).size >= 2,
      noParty: persons.every((p) => !parties.includes(p)),
    }).toEqual({ credit: c.id, decided: true, twoPeople: true, noParty: true });
  }
  // 4. no 5xx (after the money rules: a fault that moved money shows as the money it moved)
  expect(model.statuses.filter((s) => s >= 500)).toEqual([]);
}

/** After a run: every successful operator decision has its audit row; the ledger's own invariants. */
async function checkAudit(model: Model): Promise<void> {
  await auditDelivered(t);
  const { rows } = await pool().query<{ actor: string; detail: string }>('SELECT actor, detail::text AS detail FROM node.audit_log');
  for (const { op: o, target } of model.decisions) {
    const { username } = operators[o];
    expect([username, target, rows.some((r) => r.actor === `admin:${username}` && r.detail.includes(target))]).toEqual([username, target, true]);
  }
  await invariants(t.app.services.ledger.store.store, 'EUR');
}

/** What all accounts but the funding account hold, per currency: a run's baseline for rule 1. */
async function held(): Promise<Map<string, bigint>> {
  const { rows } = await pool().query<{ currency: string; held: string }>(
    `SELECT currency, sum(credits_posted - debits_posted)::text AS held FROM ledger.account WHERE NOT (owner_type = 'system' AND code = 'funding') GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.currency, BigInt(r.held)]));
}

/** One run: its own model, its baseline (what was held when it began) and its own postings. */
async function playRun(list: (Action | null)[], summary: Summary): Promise<void> {
  const model: Model = {
    deposits: await held(),
    payments: [],
    disputes: [],
    orders: [],
    adjustments: [],
    decisions: [],
    statuses: [],
    since: (await pool().query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0].now,
  };
  summary.runs++;
  // everyone starts a run with some money of their own (counted as entered from outside)
  for (const [p] of people.entries()) await step(model, { k: 'deposit', p, cents: 5000 });
  for (const a of list) {
    if (!a) continue;
    const before = model.statuses.length;
    await step(model, a);
    for (const st of model.statuses.slice(before)) summary.seen.set(`${a.k} ${st}`, (summary.seen.get(`${a.k} ${st}`) ?? 0) + 1);
    summary.steps++;
    await check(model);
  }
  await checkAudit(model);
}

describe('money: the property test that searches for money creation', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: conservation, refunds once, money decided by entitled operators (two for platform money), audited, no 5xx`, async () => {
      console.log(`money property: seed ${seed}, ${RUNS} runs (MONEY_PROPERTY_SEED=${seed} reruns it)`);
      const summary: Summary = { seen: new Map(), steps: 0, runs: 0 };
      const since = new Date();
      await fc.assert(
        fc.asyncProperty(actions, (list) => playRun(list, summary)),
        // a failing run is shrunk (each shorter candidate is another run) for at most SHRINK_MS
        { seed, numRuns: RUNS, interruptAfterTimeLimit: SHRINK_MS },
      );
      const { rows: made } = await pool().query<{ code: string; n: number }>(
        `SELECT code, count(*)::int AS n FROM ledger.transfer
          WHERE code IN ('dispute_reversal', 'dispute_loss', 'adjustment_credit', 'shop_order_refund', 'fx_sell', 'reward_redemption') AND created_at >= $1
          GROUP BY 1 ORDER BY 1`,
        [since],
      );
      const seen = Object.fromEntries([...summary.seen].sort(([a], [b]) => (a < b ? -1 : 1)));
      console.log(
        `money property: seed ${seed}: ${summary.runs} runs (${RUNS} asked), ${summary.steps} steps, statuses ${JSON.stringify(seen)}, postings ${JSON.stringify(made)}`,
      );
    }, 240_000);
  }
});

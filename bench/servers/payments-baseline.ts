/**
 * The payments baseline: a hand-written Express + pg POST /api/v1/transfers/ with the node's
 * invariants on the same tables — token verification (HS256, user active), the recipient by user
 * name, both wallets, then one transaction: the sender's limit lock, both accounts locked in id
 * order, funds checked, the day's outflows summed against the daily limit, the transfer inserted and
 * the counters moved — and the same 201 body. No gateway, GraphQL or federation.
 * `node dist/bench/servers/payments-baseline.js` with DATABASE_URL, SERVER_JWT_KEY, APP_NAME.
 */
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import express from 'express';
import { jwtVerify } from 'jose';
import pg from 'pg';

// the node's pool size per subgraph (DB_POOL_SIZE), for a like-for-like comparison
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
const key = new TextEncoder().encode(process.env.SERVER_JWT_KEY);
const issuer = process.env.APP_NAME ?? 'Finance Node';
// enhanced KYC, EUR: the node's table (subgraphs/finance/ledger/domain/limits.ts)
const PER_TRANSACTION = 2_500_000n;
const DAILY = 10_000_000n;
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const users = new Map<string, { active: boolean; username: string; at: number }>();
const wallets = new Map<string, string>();

async function wallet(owner: string, currency: string): Promise<string> {
  const k = `${owner}:${currency}`;
  const known = wallets.get(k);
  if (known) return known;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO ledger.account (owner_type, owner_id, currency, code, debits_must_not_exceed_credits) VALUES ('user', $1, $2, 'wallet', true)
     ON CONFLICT (owner_type, owner_id, currency, code) DO UPDATE SET code = EXCLUDED.code RETURNING id`,
    [owner, currency],
  );
  wallets.set(k, rows[0].id);
  return rows[0].id;
}

app.post('/api/v1/transfers/', express.json(), async (req, res) => {
  const m = /^Bearer +(\S+)$/.exec(req.headers.authorization ?? '');
  let claims: { sub?: string };
  try {
    claims = (await jwtVerify(m?.[1] ?? '', key, { algorithms: ['HS256'], audience: 'finance-node', issuer })).payload;
  } catch {
    return void res.status(401).json({ detail: 'Token is invalid.', code: 'token_not_valid' });
  }
  let user = users.get(claims.sub!);
  if (!user || Date.now() - user.at > 60_000) {
    const { rows } = await pool.query<{ is_active: boolean; username: string }>({
      name: 'active',
      text: 'SELECT is_active, username FROM identity.node_user WHERE id = $1',
      values: [claims.sub],
    });
    user = { active: rows[0]?.is_active === true, username: rows[0]?.username, at: Date.now() };
    users.set(claims.sub!, user);
  }
  if (!user.active) return void res.status(401).json({ detail: 'Token is invalid.', code: 'token_not_valid' });
  const { recipient, amount, currency, note } = req.body as { recipient?: string; amount?: string; currency?: string; note?: string };
  if (currency !== 'EUR' || typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount) || typeof recipient !== 'string') {
    return void res.status(400).json({ detail: 'Invalid input.', code: 'invalid' });
  }
  const minor = BigInt(new Decimal(amount).mul(100).toFixed(0));
  const { rows: to } = await pool.query<{ id: string; username: string }>({
    name: 'recipient',
    text: 'SELECT id, username FROM identity.node_user WHERE username = $1 AND is_active',
    values: [recipient],
  });
  if (!to[0]) return void res.status(404).json({ detail: 'No such recipient.', code: 'recipient_not_found' });
  const [from, dest] = await Promise.all([wallet(claims.sub!, currency), wallet(to[0].id, currency)]);
  if (minor > PER_TRANSACTION) return void res.status(403).json({ detail: 'Over the limit.', code: 'limit_exceeded' });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query({ name: 'limit_lock', text: `SELECT pg_advisory_xact_lock(hashtextextended('ledger.limits:' || $1, 0))`, values: [claims.sub] });
    const { rows: accounts } = await client.query<{ id: string; cpo: string; dpo: string; dpe: string }>({
      name: 'lock',
      text: `SELECT id, credits_posted::text AS cpo, debits_posted::text AS dpo, debits_pending::text AS dpe FROM ledger.account WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
      values: [[from, dest]],
    });
    const f = accounts.find((a) => a.id === from)!;
    if (BigInt(f.cpo) - BigInt(f.dpo) - BigInt(f.dpe) < minor) {
      await client.query('ROLLBACK');
      return void res.status(422).json({ detail: 'Insufficient funds.', code: 'exceeds_credits' });
    }
    const { rows: spent } = await client.query<{ total: string }>({
      name: 'spent',
      text: `SELECT COALESCE(sum(amount), 0)::text AS total FROM ledger.transfer WHERE debit_account_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AND kind = 'single'`,
      values: [from],
    });
    if (BigInt(spent[0].total) + minor > DAILY) {
      await client.query('ROLLBACK');
      return void res.status(403).json({ detail: 'Over the daily limit.', code: 'limit_exceeded' });
    }
    const id = randomUUID();
    const { rows: inserted } = await client.query<{ created_at: Date }>({
      name: 'insert',
      text: `WITH ins AS (INSERT INTO ledger.transfer (id, debit_account_id, credit_account_id, amount, currency, code, kind, batch_id, metadata)
               VALUES ($1, $2, $3, $4, $5, 'transfer', 'single', $6, $7::jsonb) RETURNING created_at),
             d AS (UPDATE ledger.account SET debits_posted = debits_posted + $4, version = version + 1 WHERE id = $2),
             c AS (UPDATE ledger.account SET credits_posted = credits_posted + $4, version = version + 1 WHERE id = $3)
             SELECT created_at FROM ins`,
      values: [
        id,
        from,
        dest,
        minor.toString(),
        currency,
        randomUUID(),
        JSON.stringify({ description: 'Transfer', note: note ?? null, from: user.username, to: to[0].username }),
      ],
    });
    await client.query('COMMIT');
    res.status(201).json({
      id,
      status: 'posted',
      amount: { amount: new Decimal(minor.toString()).div(100).toFixed(2), currency },
      sender: user.username,
      recipient: to[0].username,
      note: note ?? null,
      created_at: inserted[0].created_at.toISOString(),
    });
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    res.status(500).json({ detail: String(err), code: 'error' });
  } finally {
    client.release();
  }
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as import('node:net').AddressInfo;
  process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

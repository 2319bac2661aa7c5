/**
 * The finance baseline: a hand-written Express + pg server answering POST /api/login/ and
 * GET /api/balance/ with the same bytes as the node, from the same tables, doing the same work
 * (throttle check, argon2id verification, HS256 token with the same claims; token verification,
 * the user still active, the wallets of the ledger) — without the gateway, GraphQL or federation.
 * `node dist/bench/servers/finance-baseline.js` with DATABASE_URL, SERVER_JWT_KEY, APP_NAME.
 */
import { verify as argon2Verify } from '@node-rs/argon2';
import Decimal from 'decimal.js';
import express from 'express';
import { SignJWT, jwtVerify } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const key = new TextEncoder().encode(process.env.SERVER_JWT_KEY);
const issuer = process.env.APP_NAME ?? 'Finance Node';
const EXPONENT: Record<string, number> = { EUR: 2, GBP: 2, USD: 2 };
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const money = (minor: bigint, currency: string) => ({
  amount: new Decimal(minor.toString()).div(new Decimal(10).pow(EXPONENT[currency] ?? 2)).toFixed(EXPONENT[currency] ?? 2),
  currency,
});

app.post('/api/login/', express.json(), async (req, res) => {
  const { username, password } = req.body as { username?: string; password?: string };
  const name = String(username ?? '')
    .trim()
    .toLowerCase();
  const throttle = await pool.query<{ failures: number }>({
    name: 'failures',
    text: `SELECT failures FROM identity.login_failure WHERE username = $1 AND window_start > now() - interval '15 minutes'`,
    values: [name],
  });
  if ((throttle.rows[0]?.failures ?? 0) >= 5) return void res.status(429).json({ detail: 'Too many failed sign-ins.', code: 'throttled' });
  const { rows } = await pool.query({
    name: 'user',
    text: 'SELECT id, username, password_hash, is_active, token_version, totp_confirmed_at FROM identity.node_user WHERE username = $1',
    values: [name],
  });
  const user = rows[0] as { id: string; username: string; password_hash: string; is_active: boolean; token_version: number } | undefined;
  if (!user || !user.is_active || !(await argon2Verify(user.password_hash, String(password ?? '')))) {
    return void res.status(401).json({ detail: 'No active account found with the given credentials', code: 'no_active_account' });
  }
  await pool.query({
    name: 'success',
    text: 'WITH f AS (DELETE FROM identity.login_failure WHERE username = $2) UPDATE identity.node_user SET last_login = now() WHERE id = $1',
    values: [user.id, user.username],
  });
  const access = await new SignJWT({ username: user.username, scope: 'access', ver: user.token_version })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(issuer)
    .setAudience('finance-node')
    .setIssuedAt()
    .setExpirationTime('3600s')
    .sign(key);
  res.json({ access, token_type: 'Bearer', expires_in: 3600 });
});

const users = new Map<string, { active: boolean; version: number; at: number }>();

app.get('/api/balance/', async (req, res) => {
  const m = /^Bearer +(\S+)$/.exec(req.headers.authorization ?? '');
  let claims: { sub?: string; ver?: unknown };
  try {
    claims = (await jwtVerify(m?.[1] ?? '', key, { algorithms: ['HS256'], audience: 'finance-node', issuer })).payload;
  } catch {
    return void res.status(401).json({ detail: 'Token is invalid.', code: 'token_not_valid' });
  }
  let user = users.get(claims.sub!);
  if (!user || Date.now() - user.at > 60_000) {
    const { rows } = await pool.query<{ is_active: boolean; token_version: number }>({
      name: 'active',
      text: 'SELECT is_active, token_version FROM identity.node_user WHERE id = $1',
      values: [claims.sub],
    });
    user = { active: rows[0]?.is_active === true, version: rows[0]?.token_version ?? -1, at: Date.now() };
    users.set(claims.sub!, user);
  }
  if (!user.active || user.version !== claims.ver) return void res.status(401).json({ detail: 'Token is invalid.', code: 'token_not_valid' });
  const { rows } = await pool.query({
    name: 'wallets',
    text: `SELECT currency, debits_pending::text AS dpe, debits_posted::text AS dpo, credits_pending::text AS cpe, credits_posted::text AS cpo
             FROM ledger.account WHERE owner_type = 'user' AND owner_id = $1 AND code = 'wallet' ORDER BY currency`,
    values: [claims.sub],
  });
  res.json({
    balances: rows.map((r: { currency: string; dpe: string; dpo: string; cpe: string; cpo: string }) => {
      const posted = BigInt(r.cpo) - BigInt(r.dpo);
      return {
        currency: r.currency,
        available: money(posted - BigInt(r.dpe), r.currency),
        posted: money(posted, r.currency),
        pending: money(posted + BigInt(r.cpe) - BigInt(r.dpe), r.currency),
      };
    }),
  });
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as import('node:net').AddressInfo;
  process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

/**
 * The registry baseline: a minimal hand-written Express + pg server answering
 * GET /api/v1/releases/check-update with the same JSON as the registry surface, from the same tables,
 * doing the same work (licence key hashed and looked up, with the same 60 s cache; status and validity
 * checked; the request counted in the licence's rate window; the releases read (kept 30 s) and compared by SemVer
 * precedence) — without the gateway, GraphQL or federation.
 * `node dist/bench/servers/registry-baseline.js` with DATABASE_URL, PORT and REGISTRY_RATE_LIMIT.
 */
import { createHash } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import semver from 'semver';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const LIMIT = Number(process.env.REGISTRY_RATE_LIMIT ?? 300);
const CHANNELS: Record<string, string[]> = {
  stable: ['stable'],
  rc: ['stable', 'rc'],
  beta: ['stable', 'rc', 'beta'],
  alpha: ['stable', 'rc', 'beta', 'alpha'],
  dev: ['dev'],
};
const KEY_RE = /^LIC-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

interface Licence {
  id: string;
  product_id: string;
  product: string;
  status: string;
  maintenance_until: string;
  expires_at: Date | null;
  at: number;
}
const verified = new Map<string, Licence>();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

interface Release {
  id: string;
  version: string;
  channel: string;
  changelog: string;
  published_at: Date;
  backdated_to: Date | null;
}
/** A product's published releases, newest first, kept for 30 s: what a hand-written server would do with rows that change only on a release (the product keeps them until its table announces a change). */
const published = new Map<string, { at: number; rows: Release[] }>();
async function publishedOf(productId: string): Promise<Release[]> {
  const held = published.get(productId);
  if (held && Date.now() - held.at < 30_000) return held.rows;
  const { rows } = await pool.query<Release>({
    name: 'releases',
    text: `SELECT id, version, channel, changelog, published_at, backdated_to FROM licensing.release WHERE product_id = $1 AND status = 'published'`,
    values: [productId],
  });
  rows.sort((a, b) => semver.compare(b.version, a.version));
  published.set(productId, { at: Date.now(), rows });
  return rows;
}

const fail = (res: express.Response, status: number, code: string, message: string) => res.status(status).json({ success: false, error: { code, message } });

async function checkUpdate(req: express.Request, res: express.Response) {
  const key = String(req.headers['x-license-key'] ?? '')
    .trim()
    .toUpperCase();
  if (!KEY_RE.test(key)) return fail(res, 401, 'UNAUTHORIZED', 'Licence key required.');
  const hash = createHash('sha256').update(key).digest();
  let licence = verified.get(hash.toString('hex'));
  if (!licence || Date.now() - licence.at > 60_000) {
    const { rows } = await pool.query({
      name: 'licence',
      text: `SELECT l.id, l.product_id, p.code AS product, l.status, l.maintenance_until::text AS maintenance_until, l.expires_at
               FROM licensing.licence l JOIN licensing.plan pl ON pl.id = l.plan_id JOIN licensing.product p ON p.id = l.product_id
              WHERE l.key_hash = $1`,
      values: [hash],
    });
    if (!rows[0]) return fail(res, 401, 'LICENSE_NOT_FOUND', 'Unknown licence key.');
    licence = { ...(rows[0] as Omit<Licence, 'at'>), at: Date.now() };
    verified.set(hash.toString('hex'), licence);
  }
  const now = new Date();
  if (licence.status !== 'Active' || (licence.expires_at && licence.expires_at <= now))
    return fail(res, 403, `LICENSE_${licence.status.toUpperCase()}`, 'Not usable.');
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const { rows: counted } = await pool.query({
    name: 'meter',
    text: `INSERT INTO licensing.rate_window AS w (licence_id, window_start, count) VALUES ($1, $2, 1)
           ON CONFLICT (licence_id) DO UPDATE
              SET count = CASE WHEN w.window_start = EXCLUDED.window_start THEN w.count + 1 ELSE 1 END, window_start = EXCLUDED.window_start
            WHERE w.window_start <> EXCLUDED.window_start OR w.count < $3
           RETURNING count`,
    values: [licence.id, windowStart, LIMIT],
  });
  if (!counted[0]) return fail(res, 429, 'RATE_LIMITED', 'Rate limit reached.');
  res.setHeader('x-ratelimit-limit', String(LIMIT));
  res.setHeader('x-ratelimit-remaining', String(LIMIT - (counted[0] as { count: number }).count));
  res.setHeader('x-ratelimit-reset', String(windowStart.getTime() / 1000 + 60));

  const { product, channel, current_version: current } = req.query as Record<string, string | undefined>;
  if (!product || !channel || !CHANNELS[channel] || !current || !/^\d/.test(current) || !semver.valid(current))
    return fail(res, 400, 'INVALID', 'Invalid query parameters.');
  if (product !== licence.product) return fail(res, 404, 'PRODUCT_NOT_FOUND', 'Unknown product.');
  const releases = (await publishedOf(licence.product_id)).filter((r) => CHANNELS[channel].includes(r.channel));
  const end = Date.parse(`${licence.maintenance_until}T00:00:00Z`) + 86_400_000;
  const covered = (r: (typeof releases)[number]) => (r.backdated_to ?? r.published_at).getTime() < end;
  const base = `${req.protocol}://${req.get('host')}`;
  const url = (id: string) => `${base}/api/v1/releases/${id}/manifest?format=compose`;
  const newer = releases.filter((r) => semver.compare(r.version, current) > 0);
  const latest = newer[0] ?? releases[0];
  if (!latest) {
    return res.json({
      success: true,
      data: {
        updateAvailable: false,
        latestVersion: current,
        channel,
        changelog: '',
        maintenanceCovered: true,
        releaseId: null,
        downloadUrl: null,
        latestCovered: null,
      },
    });
  }
  const fallback = newer.length && !covered(latest) ? newer.find(covered) : undefined;
  res.json({
    success: true,
    data: {
      updateAvailable: newer.length > 0,
      latestVersion: latest.version,
      channel: latest.channel,
      changelog: latest.changelog,
      maintenanceCovered: covered(latest),
      releaseId: latest.id,
      downloadUrl: url(latest.id),
      latestCovered: fallback ? { version: fallback.version, releaseId: fallback.id, downloadUrl: url(fallback.id) } : null,
    },
  });
}

app.get('/api/v1/releases/check-update', (req, res, next) => {
  checkUpdate(req, res).catch(next);
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

import express from 'express';
import { DEFAULT_CLIENT_DIR } from '../../clients/finance-web/build';
import { runEntry } from '../../lib/entry';
import { listen, onShutdown } from '../../lib/server';
import { serveFinanceClient } from './client';

/**
 * The finance web client on a host of its own (the `finance-frontend` image): the built client
 * (WEB_ROOT, default dist/finance-web) at /app/, served as the node serves it, with the node's public
 * URL (API_URL, e.g. https://api.bank.example) named in the page. GET /healthz answers when it runs.
 */
async function main() {
  const env = process.env;
  const apiUrl = env.API_URL?.trim() || 'http://localhost:8000';
  const parsed = new URL(apiUrl);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`API_URL must be an http(s) URL, got ${apiUrl}`);
  const app = express();
  app.disable('x-powered-by');
  // /app redirects to /app/, and only that way
  app.set('strict routing', true);
  app.get('/healthz', (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok' });
  });
  app.get('/', (_req, res) => res.redirect(302, '/app/'));
  serveFinanceClient(app, { FRONTEND_URL: undefined }, env.WEB_ROOT || DEFAULT_CLIENT_DIR, { apiBase: apiUrl });
  const server = await listen(app, env.HOST || '127.0.0.1', Number(env.WEB_PORT || 8080));
  onShutdown(
    () => server.close(),
    (msg, err) => process.stderr.write(`${msg}${err ? `: ${err instanceof Error ? err.message : 'unknown error'}` : ''}\n`),
  );
  process.stdout.write(`finance web client on ${server.url}/app/ (API ${parsed.origin})\n`);
}

void runEntry(main);

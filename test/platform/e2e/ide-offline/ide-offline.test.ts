import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { http } from '../../../support/platform/http';
import { launchChromium, offlineContext } from '../../../support/platform/browser';
import { startChildApp, type ChildApp } from '../../../support/platform/child-app';

/**
 * The GraphQL IDE (ruru/GraphiQL) works with no network but this machine: every request that is not
 * to 127.0.0.1 is blocked and recorded, and none may even be attempted.
 *
 * The system runs as a child `node` process (dist/), as `npm start` runs it: ruru loads its assets
 * with a dynamic import(), which jest's module sandbox refuses, so in-process the assets answer 500.
 */

const COMPETITION_CODES = ['de.1', 'en.1', 'en.2', 'es.1', 'fr.1', 'it.1'];

let dev: ChildApp;
let prod: ChildApp;
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium({ args: ['--disable-quic'] });
  [dev, prod] = await Promise.all([
    startChildApp(),
    startChildApp({
      NODE_ENV: 'production',
      PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
      FRONTEND_URL: 'http://127.0.0.1:8000/app/',
      PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([dev?.stop(), prod?.stop()]);
});

interface Ide {
  page: Page;
  /** Every request the browser tried to send off 127.0.0.1 (all blocked). */
  external: string[];
  /** Every URL the browser asked for. */
  requested: string[];
  /** Every Content-Security-Policy violation the page (or a worker) reported. */
  violations: string[];
  /** Page errors, console errors and failed requests: what a failure to render is explained by. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh browser context (its own cookies, storage and cache) with everything but 127.0.0.1 blocked, on the IDE page. */
async function openIde(url: string, httpCredentials?: { username: string; password: string }): Promise<Ide> {
  const external: string[] = [];
  const requested: string[] = [];
  const context: BrowserContext = await offlineContext(browser, external, { httpCredentials, requested });
  const page = await context.newPage();
  page.on('websocket', (ws) => external.push(ws.url()));
  const violations: string[] = [];
  const report = (text: string) => {
    if (/Content Security Policy/i.test(text)) violations.push(text);
  };
  const problems: string[] = [];
  page.on('console', (message) => {
    report(message.text());
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('worker', (worker) => worker.on('console', (message) => report(message.text())));
  // runs in the page (a script, not this file's code: the test is compiled without the DOM's types)
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  await page.goto(url);
  return {
    page,
    external,
    requested,
    violations,
    problems,
    async close() {
      await context.close();
    },
  };
}

/**
 * The IDE has rendered: the query editor (Monaco) holds the initial query, the run button is there.
 * The wait is generous: on a CI machine building images beside two test workers, parsing ruru's
 * 5 MB bundle took over 20 s once. A failure says what the page reported meanwhile.
 */
async function expectEditorRendered({ page, problems }: Pick<Ide, 'page' | 'problems'>) {
  const editor = page.locator('.graphiql-query-editor .monaco-editor');
  try {
    await editor.waitFor({ state: 'visible', timeout: 60_000 });
  } catch (error) {
    throw new Error(`the IDE's editor did not render: ${(error as Error).message}\nthe page reported:\n${problems.join('\n') || '(nothing)'}`, {
      cause: error,
    });
  }
  // Monaco renders spaces as U+00A0
  expect((await editor.innerText()).replace(/\u00a0/g, ' ')).toContain('query Competitions {');
  await expect(page.locator('.graphiql-execute-button').isVisible()).resolves.toBe(true);
}

/** Runs the query in the editor and returns what the gateway answered and what the IDE shows. */
async function runQuery(page: Page) {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/graphql') && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('competitions'),
  );
  await page.locator('.graphiql-execute-button').click();
  const response = await answered;
  // the result pane is a Monaco editor too: only the lines in view are in the DOM
  const shown = page.locator('.graphiql-response .result-window');
  await shown.getByText('"English Premier League"').waitFor({ timeout: 10_000 });
  return { response, shownText: (await shown.innerText()).replace(/\u00a0/g, ' ') };
}

function expectCompetitions(body: { data?: { competitions?: { code: string }[] } }) {
  expect(body.data!.competitions!.map((c) => c.code).sort()).toEqual(COMPETITION_CODES);
}

describe('development mode: the IDE in a browser with no network', () => {
  it('serves the page and its assets from this process only, renders the editor and runs a query with a key set in the Headers editor', async () => {
    // a client key, issued through the gateway like an administrator would
    const created = await http(`${dev.urls.gateway}/graphql`, {
      method: 'POST',
      key: dev.adminKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { createApiKey(input: {name: "ide user", plan: pro}) { key } }' }),
    });
    expect(created.status).toBe(200);
    const clientKey: string = created.body.data.createApiKey.key;

    const page = await http(`${dev.urls.gateway}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // every script, stylesheet and preload of the page is local
    const referenced = [...(page.body as string).matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(referenced.length).toBeGreaterThan(0);
    for (const ref of referenced) expect(ref).toMatch(/^\/ruru-static\//);
    expect(page.body).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|fonts\.googleapis/);
    // served with helmet's headers; the policy admits this page's inline scripts by hash, nothing from elsewhere
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    const ide = await openIde(`${dev.urls.gateway}/graphql`);
    try {
      await expectEditorRendered(ide);
      await ide.page.getByRole('button', { name: 'Headers' }).click();
      await ide.page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)').click();
      await ide.page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${clientKey}` }));
      const { response, shownText } = await runQuery(ide.page);
      expect(response.status()).toBe(200);
      expect(response.request().headers()['authorization']).toBe(`Bearer ${clientKey}`);
      expect(response.headers()['x-ratelimit-limit']).toBe('5000');
      expectCompetitions(await response.json());
      expect(shownText).toMatch(/"data": \{\s*"competitions": \[\s*\{\s*"code": "en\.1",\s*"name": "English Premier League"/);
      // the assets really came from here: ruru's bundle, its stylesheet and its workers
      expect(ide.requested).toContain(`${dev.urls.gateway}/ruru-static/ruru.js`);
      expect(ide.requested).toContain(`${dev.urls.gateway}/ruru-static/ruru.css`);
      expect(ide.external).toEqual([]);
      // the IDE runs under its Content-Security-Policy without a single violation
      expect(ide.violations).toEqual([]);
    } finally {
      await ide.close();
    }
  });
});

describe('production mode', () => {
  const graphqlUrl = () => `${prod.urls.gateway}/graphql`;
  const basic = (password: string, user = 'any-user') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const introspect = (key: string) =>
    http(graphqlUrl(), {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
  let clientKey: string;

  beforeAll(async () => {
    const created = await http(graphqlUrl(), {
      method: 'POST',
      key: prod.adminKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { createApiKey(input: {name: "prod client", plan: free}) { key } }' }),
    });
    expect(created.status).toBe(200);
    clientKey = created.body.data.createApiKey.key;
  });

  it('asks for credentials (401, WWW-Authenticate: Basic) when the IDE is opened without any', async () => {
    const res = await http(graphqlUrl(), { headers: { accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
    expect(res.body).not.toContain('<script');
  });

  it('refuses the IDE to a client key (401) and serves it to the administrator key given as the Basic password (200)', async () => {
    const client = await http(graphqlUrl(), { headers: { accept: 'text/html', authorization: basic(clientKey) } });
    expect(client.status).toBe(401);
    expect(client.headers.get('www-authenticate')).toMatch(/^Basic /);
    const clientBearer = await http(graphqlUrl(), { key: clientKey, headers: { accept: 'text/html' } });
    expect(clientBearer.status).toBe(401);
    const adminPage = await http(graphqlUrl(), { headers: { accept: 'text/html', authorization: basic(prod.adminKey) } });
    expect(adminPage.status).toBe(200);
    expect(adminPage.headers.get('content-type')).toMatch(/^text\/html/);
    expect(adminPage.body).toContain('/ruru-static/ruru.js');
  });

  it('refuses introspection to a client key (403 FORBIDDEN) and allows it to the administrator key', async () => {
    const client = await introspect(clientKey);
    expect(client.status).toBe(403);
    expect(client.body.data).toBeUndefined();
    expect(client.body.errors).toHaveLength(1);
    expect(client.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(client.body.errors[0].message).toBe('Introspection is restricted to administrator keys.');
    const admin = await introspect(prod.adminKey);
    expect(admin.status).toBe(200);
    expect(admin.body.errors).toBeUndefined();
    const types = admin.body.data.__schema.types.map((t: { name: string }) => t.name);
    expect(types).toEqual(expect.arrayContaining(['Query', 'Mutation', 'Competition', 'Match', 'Team', 'ApiKey']));
    // @inaccessible types stay out of the public schema
    expect(types).not.toContain('KeyAuthentication');
  });

  it('works in a browser that signs in with the administrator key (Basic): the query runs with the remembered credentials', async () => {
    const ide = await openIde(graphqlUrl(), { username: 'admin', password: prod.adminKey });
    try {
      await expectEditorRendered(ide);
      const { response, shownText } = await runQuery(ide.page);
      expect(response.status()).toBe(200);
      // Chromium adds the remembered Basic credentials below what the DevTools protocol shows; that they
      // were sent shows in the answer: `competitions` refuses anonymous callers (UNAUTHENTICATED)
      const body = await response.json();
      expect(body.errors).toBeUndefined();
      expectCompetitions(body);
      expect(shownText).toContain('"code": "en.1"');
      expect(ide.external).toEqual([]);
      expect(ide.violations).toEqual([]);
    } finally {
      await ide.close();
    }
  });
});

import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Route } from '../core/route';
import { consolePages, relation } from './pages';

const page = (path: string, method: Route['method'] = 'GET'): Route => ({ method, path, summary: path, security: 'none', response: { description: path } });
const paths = (routes: Route[]) => routes.map((r) => `${r.method} ${r.path}`);

describe('console page registration', () => {
  it('tells a page from the pattern that covers it', () => {
    expect(relation(page('/admin/:app/'), page('/admin/audit/'))).toBe('covers');
    expect(relation(page('/admin/audit/'), page('/admin/:app/'))).toBe('within');
    expect(relation(page('/admin/audit/'), page('/admin/audit/', 'POST'))).toBe('apart');
    expect(relation(page('/admin/:app/'), page('/admin/:model/'))).toBe('same');
    expect(relation(page('/a/:x/b/'), page('/a/b/:y/'))).toBe('overlaps');
  });

  it('puts a page registered after a catch-all before it, and keeps every other order', () => {
    const routes = consolePages([
      { name: 'apps', pages: [page('/admin/'), page('/admin/:app/')] },
      { name: 'audit', pages: [page('/admin/audit/'), page('/admin/audit/', 'POST'), page('/admin/users/:id/')] },
    ]);
    expect(paths(routes)).toEqual(['GET /admin/', 'GET /admin/audit/', 'GET /admin/:app/', 'POST /admin/audit/', 'GET /admin/users/:id/']);
  });

  it('refuses the same page twice, and patterns that shadow each other in part', () => {
    expect(() =>
      consolePages([
        { name: 'a', pages: [page('/admin/:app/')] },
        { name: 'b', pages: [page('/admin/:model/')] },
      ]),
    ).toThrow(/GET \/admin\/:model\/ \(b\) and GET \/admin\/:app\/ \(a\) are the same page, registered twice/);
    expect(() => consolePages([{ name: 'a', pages: [page('/a/:x/b/'), page('/a/b/:y/')] }])).toThrow(/each answer some paths of the other/);
  });

  it('answers each page from its own handler once mounted in that order (real HTTP)', async () => {
    const routes = consolePages([
      { name: 'apps', pages: [page('/admin/:app/')] },
      { name: 'audit', pages: [page('/admin/audit/')] },
    ]);
    const app = express();
    for (const r of routes) app.get(r.path, (_req, res) => void res.send(r.path));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await (await fetch(`${base}/admin/audit/`)).text()).toBe('/admin/audit/');
      expect(await (await fetch(`${base}/admin/kyc/`)).text()).toBe('/admin/:app/');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

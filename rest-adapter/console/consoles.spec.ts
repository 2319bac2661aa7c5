import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../lib/paths';
import { startTestApp, type TestApp } from '../../test/support/platform/app';
import { http } from '../../test/support/platform/http';
import type { ConsoleFrame } from './kit';
import { SIGN_IN_MARK } from './sign-in';
import { consoleStylesheet, themePath } from './theme';

/**
 * Every console of the tree (each `ConsoleFrame` declared under rest-adapter/, found by a search of the
 * source, so a new console is covered without editing this file) serves the kit's sign-in page when it
 * has a sign-in, links the kit's one stylesheet (no inline <style>) and serves that stylesheet with its
 * own variables, over real HTTP on the real surfaces.
 */
const ROOT = join(projectRoot(), 'rest-adapter');
const DECLARATION = /export const (\w+): ConsoleFrame = \{/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every console declared in the tree: its file, name and frame (a declaration that is not exported fails the search below). */
const consoles = sourceFiles(ROOT).flatMap((file) => {
  const source = readFileSync(file, 'utf8');
  const names = [...source.matchAll(DECLARATION)].map((m) => m[1]);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- each console's module, found by the search (jest runs CommonJS)
  const module = names.length ? (require(file) as Record<string, ConsoleFrame>) : {};
  return names.map((name) => ({ where: `${relative(projectRoot(), file)}#${name}`, frame: module[name] }));
});

/** The origin of the surface that serves a console's stylesheet (the kit names no product: each surface is asked). */
async function originOf(frame: ConsoleFrame): Promise<string | undefined> {
  for (const origin of Object.values(t.urls) as string[]) {
    const res = await http(`${origin}${themePath(frame.home)}`);
    if (res.status === 200 && /^text\/css/.test(res.headers.get('content-type') ?? '')) return origin;
  }
  return undefined;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance', 'registry', 'predictions'] });
}, 180_000);
afterAll(() => t?.stop());

it('finds the consoles, and every console declaration is exported (no console is declared where it cannot be checked)', () => {
  expect(consoles.map((c) => c.where)).toEqual(
    expect.arrayContaining(['rest-adapter/finance/admin/layout.ts#FINANCE_CONSOLE', 'rest-adapter/registry/workspace/frame.ts#WORKSPACE']),
  );
  for (const c of consoles) expect([c.where, typeof c.frame?.home]).toEqual([c.where, 'string']);
  const declared = sourceFiles(ROOT).reduce((n, f) => n + (readFileSync(f, 'utf8').match(/:\s*ConsoleFrame\s*=/g)?.length ?? 0), 0);
  expect(consoles).toHaveLength(declared);
});

describe.each(consoles.map((c) => [c.where, c.frame] as const))('%s', (_where, frame) => {
  it("serves the kit's stylesheet with its variables", async () => {
    const origin = await originOf(frame);
    expect(origin).toBeDefined();
    const res = await http(`${origin}${themePath(frame.home)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(res.text).toBe(consoleStylesheet(frame.theme?.vars));
  });

  it("links the kit's stylesheet and has no inline stylesheet; its sign-in is the kit's", async () => {
    const base = await originOf(frame);
    expect(base).toBeDefined();
    const page = await http(`${base}${frame.loginPath ?? frame.home}`);
    // a console that answers nothing here in this environment (the development outbox outside development) has no page to check
    if (!frame.loginPath && page.status === 404) return;
    expect(page.status).toBe(200);
    const body = page.text;
    expect(body).toContain(`<link rel="stylesheet" href="${themePath(frame.home)}" />`);
    expect(body).not.toMatch(/<style|\sstyle="/i);
    if (frame.loginPath) {
      expect(body).toContain(SIGN_IN_MARK);
      expect(body.match(/<form /g)).toHaveLength(1);
      expect(body).toContain('name="csrfmiddlewaretoken"');
    }
  });
});

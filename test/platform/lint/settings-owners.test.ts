/**
 * Each setting has one owner: the platform (lib/config.ts) or one product (subgraphs/<product>/settings.ts,
 * named by its manifest). The schemas are enumerated from the product catalogue, and the readers of a
 * product's setting (`.KEY`, `Config['KEY']`, `Pick<Config, … 'KEY' …>` in the source tree) are found by
 * a scan of the code, so a new setting, product or reader is covered without editing this test. A setting
 * that another product, lib/ or the platform reads belongs to the platform. Entry points (bin/), tests,
 * specs, benchmarks and lib/config.ts itself (which composes the settings) do not count as readers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { platformSettings } from '../../../lib/config';
import { projectRoot } from '../../../lib/paths';
import { PRODUCT_NAMES, PRODUCTS } from '../../../subgraphs/products';
import { ownerOf } from '../../support/platform/owners';

const root = projectRoot();
const FOLDERS = ['lib', 'subgraphs', 'gateway', 'rest-adapter', 'bot', 'clients'];

/** Every settings schema: the platform's and each product's, with the names each declares. */
const schemas: { owner: string; names: string[] }[] = [
  { owner: 'platform', names: Object.keys(platformSettings.shape) },
  ...PRODUCT_NAMES.map((p) => ({ owner: p, names: Object.keys(PRODUCTS[p].settings.schema.shape) })),
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The source files that count as readers, by path from the root, with their text. */
const readers = FOLDERS.flatMap((f) => sources(join(root, f)))
  .map((path) => relative(root, path))
  .filter((path) => path !== 'lib/config.ts' && !/\.(spec|test)\.ts$/.test(path) && ownerOf(path) !== null)
  .map((path) => ({ path, owner: ownerOf(path)!, text: readFileSync(join(root, path), 'utf8') }));

/** Whether a file reads the setting. */
const reads = (text: string, name: string) => new RegExp(`\\.${name}\\b|Config\\[['"]${name}['"]\\]|Pick<Config,[^>]*['"]${name}['"]`).test(text);

it('enumerates the platform and every product, each with settings', () => {
  expect(schemas.map((s) => s.owner)).toEqual(['platform', ...PRODUCT_NAMES]);
  for (const s of schemas) expect([s.owner, s.names.length > 0]).toEqual([s.owner, true]);
  expect(readers.length).toBeGreaterThan(500);
});

it('declares every setting once', () => {
  const owners = new Map<string, string[]>();
  for (const s of schemas) for (const name of s.names) owners.set(name, [...(owners.get(name) ?? []), s.owner]);
  const twice = [...owners].filter(([, by]) => by.length > 1).map(([name, by]) => `${name}: ${by.join(', ')}`);
  expect(twice).toEqual([]);
});

it("reads a product's setting only in that product's code (a shared one belongs to the platform)", () => {
  const foreign: string[] = [];
  for (const s of schemas.filter((s) => s.owner !== 'platform'))
    for (const name of s.names)
      for (const r of readers) if (r.owner !== s.owner && reads(r.text, name)) foreign.push(`${name} (${s.owner}) read by ${r.path} (${r.owner})`);
  expect(foreign).toEqual([]);
});

it('finds the readers it looks for', () => {
  // each product reads some of its own settings: the scan sees them
  for (const s of schemas.filter((s) => s.owner !== 'platform'))
    expect([s.owner, s.names.some((name) => readers.some((r) => r.owner === s.owner && reads(r.text, name)))]).toEqual([s.owner, true]);
  expect(reads('cfg.TELEGRAM_BOT_TOKEN', 'TELEGRAM_BOT_TOKEN')).toBe(true);
  expect(reads("Pick<Config, 'HOST' | 'BOT_PORT'>", 'BOT_PORT')).toBe(true);
  expect(reads('BOT_PORTS', 'BOT_PORT')).toBe(false);
});

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { projectRoot } from '../../lib/paths';
import { textColorOn } from './colors';

export { contrastRatio, luminance, textColorOn } from './colors';

const run = promisify(execFile);

export interface ClientBranding {
  displayName: string; // page title, manifest name
  primaryColor: string; // '#rrggbb'
  accentColor: string; // '#rrggbb'
  logo?: { bytes: Buffer; contentType: string }; // png/svg/jpeg
  favicon?: { bytes: Buffer; contentType: string };
}

/** The generic client's branding (the `frontend` component of a release). */
export const GENERIC_BRANDING: ClientBranding = { displayName: 'Finance', primaryColor: '#1d4ed8', accentColor: '#0f766e' };

/** Where `npm run build` writes the generic client, which the finance surface serves. */
export const DEFAULT_CLIENT_DIR = join(projectRoot(), 'dist', 'finance-web');
export const DEFAULT_BASE_PATH = '/app/';

const IMAGE_TYPES: Record<string, string> = { 'image/png': 'png', 'image/svg+xml': 'svg', 'image/jpeg': 'jpg' };
const HEX = /^#[0-9a-f]{6}$/i;

/** A branding the build refuses (the caller's input, not a build failure). */
export class InvalidBranding extends Error {}

function validate(branding: ClientBranding): void {
  if (!branding.displayName.trim() || branding.displayName.length > 80) throw new InvalidBranding('displayName must be 1 to 80 characters');
  for (const key of ['primaryColor', 'accentColor'] as const) if (!HEX.test(branding[key])) throw new InvalidBranding(`${key} must be #rrggbb`);
  for (const key of ['logo', 'favicon'] as const) {
    const image = branding[key];
    if (image && !IMAGE_TYPES[image.contentType]) throw new InvalidBranding(`${key} must be PNG, SVG or JPEG (got ${image.contentType})`);
    if (image && image.bytes.length > 2 * 1024 * 1024) throw new InvalidBranding(`${key} is larger than 2 MiB`);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A square icon with the name's initial, for brandings without a logo (and the generic client). */
export function initialIcon(branding: ClientBranding): Buffer {
  const initial = escapeHtml((branding.displayName.trim()[0] ?? 'F').toUpperCase());
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="${branding.primaryColor}"/>` +
      `<text x="256" y="340" font-family="system-ui, sans-serif" font-size="300" font-weight="700" text-anchor="middle" fill="${textColorOn(branding.primaryColor)}">${initial}</text></svg>`,
  );
}

interface Asset {
  fileName: string;
  sourcePath?: string;
  text?: string;
}

/** Builds the finance web client (Vite) into outDir with the branding baked in (or the generic
 *  branding when undefined); returns the files written and the gzipped size of the first load. */
export async function buildFinanceClient(opts: {
  outDir: string;
  branding?: ClientBranding;
  basePath?: string;
}): Promise<{ outDir: string; files: string[]; firstLoadGzipBytes: number }> {
  const branding = opts.branding ?? GENERIC_BRANDING;
  validate(branding);
  const basePath = opts.basePath ?? DEFAULT_BASE_PATH;
  if (!/^\/([A-Za-z0-9._~-]+\/)*$/.test(basePath)) throw new InvalidBranding('basePath must be an absolute path ending in /');
  const outDir = resolve(opts.outDir);
  const work = await mkdtemp(join(tmpdir(), 'finance-client-'));
  try {
    const assets: Asset[] = [];
    const image = async (name: string, given: ClientBranding['logo']): Promise<string> => {
      const fileName = given ? `${name}.${IMAGE_TYPES[given.contentType]}` : `${name}.svg`;
      const sourcePath = join(work, fileName);
      await writeFile(sourcePath, given ? given.bytes : initialIcon(branding));
      assets.push({ fileName, sourcePath });
      return fileName;
    };
    const logo = await image('logo', branding.logo);
    const favicon = await image('favicon', branding.favicon ?? branding.logo);
    const iconType = (file: string) => (file.endsWith('.svg') ? 'image/svg+xml' : file.endsWith('.png') ? 'image/png' : 'image/jpeg');
    const manifest = {
      name: branding.displayName,
      short_name: branding.displayName.slice(0, 12),
      start_url: basePath,
      scope: basePath,
      display: 'standalone',
      theme_color: branding.primaryColor,
      background_color: '#ffffff',
      icons: [{ src: logo, type: iconType(logo), sizes: logo.endsWith('.svg') ? 'any' : '512x512', purpose: 'any' }],
    };
    assets.push({ fileName: 'manifest.webmanifest', text: JSON.stringify(manifest, null, 2) });
    assets.push({
      fileName: 'branding.css',
      text: `:root{--primary:${branding.primaryColor};--on-primary:${textColorOn(branding.primaryColor)};--accent:${branding.accentColor}}\n`,
    });
    const baked = { displayName: branding.displayName, custom: opts.branding !== undefined, logo };
    const headHtml = [
      `<meta name="theme-color" content="${branding.primaryColor}" />`,
      `<meta name="finance-branding" content="${escapeHtml(JSON.stringify(baked))}" />`,
      `<link rel="icon" href="${favicon}" type="${iconType(favicon)}" />`,
      `<link rel="apple-touch-icon" href="${logo}" />`,
      `<link rel="manifest" href="manifest.webmanifest" />`,
      `<link rel="stylesheet" href="branding.css" />`,
    ].join('\n    ');
    const version = (JSON.parse(await readFile(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
    const spec = {
      root: join(projectRoot(), 'clients', 'finance-web'),
      outDir,
      basePath,
      version,
      titleHtml: escapeHtml(branding.displayName),
      headHtml,
      assets,
    };
    const key = await buildKey(spec);
    const cached = await cachedBuild(outDir, key);
    if (cached) return cached;
    await rm(stampOf(outDir), { force: true });
    const specFile = join(work, 'spec.json');
    await writeFile(specFile, JSON.stringify(spec));
    await run(process.execPath, [join(projectRoot(), 'clients', 'finance-web', 'vite-build.mjs'), specFile], {
      cwd: projectRoot(),
      maxBuffer: 16 * 1024 * 1024,
    });
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => relative(outDir, join(entry.parentPath, entry.name)))
      .sort();
    const built = { outDir, files, firstLoadGzipBytes: await firstLoadGzipBytes(outDir) };
    await writeFile(stampOf(outDir), JSON.stringify({ key, files, firstLoadGzipBytes: built.firstLoadGzipBytes }));
    return built;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * A build is skipped when outDir holds one from the same inputs: the client's sources (this folder), the
 * dependencies' versions (package-lock.json) and what the branding bakes in. The key and the list of
 * files are kept beside outDir (`<outDir>.build.json`, never served); a build that fails leaves none.
 * `npm run build` after a change of nothing, and every browser test file after the first, take no time.
 */
const stampOf = (outDir: string) => `${outDir.replace(/\/+$/, '')}.build.json`;

async function buildKey(spec: { basePath: string; version: string; titleHtml: string; headHtml: string; assets: Asset[] }): Promise<string> {
  const hash = createHash('sha256');
  const root = join(projectRoot(), 'clients', 'finance-web');
  for (const entry of (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    const path = join(entry.parentPath, entry.name);
    if (path.endsWith('.spec.ts')) continue;
    hash
      .update(relative(root, path))
      .update('\0')
      .update(await readFile(path))
      .update('\0');
  }
  hash.update(await readFile(join(projectRoot(), 'package-lock.json')));
  const assets = await Promise.all(
    spec.assets.map(async (a) => ({
      fileName: a.fileName,
      text: a.text,
      bytes: a.sourcePath
        ? createHash('sha256')
            .update(await readFile(a.sourcePath))
            .digest('hex')
        : undefined,
    })),
  );
  hash.update(JSON.stringify({ basePath: spec.basePath, version: spec.version, titleHtml: spec.titleHtml, headHtml: spec.headHtml, assets }));
  return hash.digest('hex');
}

async function cachedBuild(outDir: string, key: string): Promise<{ outDir: string; files: string[]; firstLoadGzipBytes: number } | undefined> {
  try {
    const stamp = JSON.parse(await readFile(stampOf(outDir), 'utf8')) as { key: string; files: string[]; firstLoadGzipBytes: number };
    if (stamp.key !== key || !stamp.files.every((f) => existsSync(join(outDir, f)))) return undefined;
    return { outDir, files: stamp.files, firstLoadGzipBytes: stamp.firstLoadGzipBytes };
  } catch {
    return undefined;
  }
}

/** Gzipped bytes of what the first visit downloads: index.html and the scripts and styles it names. */
export async function firstLoadGzipBytes(outDir: string): Promise<number> {
  const html = await readFile(join(outDir, 'index.html'));
  let total = gzipSync(html).length;
  const local = new Set<string>();
  for (const match of html.toString('utf8').matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"[^>]*>/g)) {
    const tag = match[0];
    const target = match[1];
    if (/^[a-z]+:|^\/\//i.test(target)) continue;
    if (tag.startsWith('<script') || /rel="(?:stylesheet|modulepreload)"/.test(tag)) local.add(target.replace(/^\.\//, ''));
  }
  for (const file of local) total += gzipSync(await readFile(join(outDir, file))).length;
  return total;
}

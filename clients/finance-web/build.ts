import { execFile } from 'node:child_process';
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
    return { outDir, files, firstLoadGzipBytes: await firstLoadGzipBytes(outDir) };
  } finally {
    await rm(work, { recursive: true, force: true });
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

/**
 * `npm run bench:client`: the finance web client's figures (the client's half).
 *
 *  1. First load, gzipped: index.html and the scripts and styles it names (goal < 250 kB), generic and
 *     branded, and the whole output directory for comparison.
 *  2. Time of `buildFinanceClient` with a branding (logo and favicon) beside the generic build in the
 *     same run (the baseline: the same Vite build without a branding), median and max of --rounds.
 *
 * Options: --rounds <n> (5).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildFinanceClient, type ClientBranding } from '../clients/finance-web/build';
import { iconPng } from '../clients/mobile/icons';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(args.rounds);

const branding: ClientBranding = { displayName: 'Acme Wallet', primaryColor: '#0b5fff', accentColor: '#ff6a00' };
branding.logo = { bytes: iconPng(branding, 512), contentType: 'image/png' };
branding.favicon = { bytes: iconPng(branding, 64), contentType: 'image/png' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function allGzipped(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + gzipSync(readFileSync(join(entry.parentPath, entry.name))).length, 0);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-client-'));
  try {
    const times: Record<'generic' | 'branded', number[]> = { generic: [], branded: [] };
    const sizes: Record<'generic' | 'branded', number> = { generic: 0, branded: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const kind of ['generic', 'branded'] as const) {
        const outDir = join(dir, `${kind}-${round}`);
        const started = process.hrtime.bigint();
        const result = await buildFinanceClient({ outDir, branding: kind === 'branded' ? branding : undefined });
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        sizes[kind] = result.firstLoadGzipBytes;
      }
    }
    console.log(
      `first load, gzipped (goal < 250 kB): generic ${kB(sizes.generic)}, branded ${kB(sizes.branded)}; whole generic build ${kB(allGzipped(join(dir, 'generic-0')))}`,
    );
    for (const kind of ['generic', 'branded'] as const)
      console.log(
        `buildFinanceClient ${kind.padEnd(8)} median ${median(times[kind]).toFixed(0)} ms, max ${Math.max(...times[kind]).toFixed(0)} ms (${rounds} rounds)`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

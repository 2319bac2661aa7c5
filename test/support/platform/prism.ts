import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';

/**
 * Stoplight Prism's validating proxy (`prism proxy <document> <upstream>`, @stoplight/prism-cli), run
 * as a child process on a free port: every request and response passing through it is checked
 * against the OpenAPI document by a tool we did not write. It forwards everything (no `--errors`,
 * which would answer deliberately invalid requests itself instead of letting the server under test
 * answer them) and reports what does not match in the `sl-violations` response header.
 */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface PrismProxy {
  url: string;
  /** What Prism printed (its log of each request). */
  output(): string;
  stop(): Promise<void>;
}

const CLI = join(projectRoot(), 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export async function startPrismProxy(document: Record<string, unknown>, upstream: string): Promise<PrismProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-prism-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const [port] = await freePorts(1);
  const child: ChildProcess = spawn(process.execPath, [CLI, 'proxy', file, upstream, '--host', '127.0.0.1', '--port', String(port), '--cors', 'false'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Prism did not start in 60 s:\n${out}`)), 60_000);
      const check = () => {
        if (out.includes('Prism is listening')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`Prism exited before it was ready:\n${out}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => out, stop };
}

/** The violations Prism reports on a response (none: the header is absent). */
export function violationsOf(headers: Headers): Violation[] {
  const header = headers.get('sl-violations');
  return header ? (JSON.parse(header) as Violation[]) : [];
}

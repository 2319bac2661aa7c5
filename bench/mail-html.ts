/**
 * `node dist/bench/mail-html.js`: reading an HTML-only application mail, as the input grows. The
 * pathological input is unclosed `<script` tags (what made the former regular expression quadratic);
 * the baseline, measured in the same run, is the same number of bytes of ordinary paragraphs. A
 * linear reader keeps the time per kilobyte flat as the input doubles.
 */
import { performance } from 'node:perf_hooks';
import { parseApplicationMail } from '../subgraphs/predictions/access/domain/application-mail';

const SIZES_KB = [25, 50, 100, 200];

function message(html: string): string {
  return `From: Bench <bench@example.org>\r\nSubject: API Access Request\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${html}`;
}

async function msFor(html: string): Promise<number> {
  const raw = message(html);
  await parseApplicationMail(raw).catch(() => undefined); // warm-up
  const runs = 5;
  const start = performance.now();
  for (let i = 0; i < runs; i++) await parseApplicationMail(raw).catch(() => undefined);
  return (performance.now() - start) / runs;
}

async function main() {
  console.log(`HTML-only application mail, Node ${process.version}: ms per message (mean of 5) and µs per kB`);
  console.log('  size    <script flood         baseline: paragraphs   ratio');
  for (const kb of SIZES_KB) {
    const bytes = kb * 1000;
    const flood = '<script'.repeat(Math.ceil(bytes / 7)).slice(0, bytes);
    const paragraph = '<p>Usage: predictions for a club newsletter.</p>';
    const plain = paragraph.repeat(Math.ceil(bytes / paragraph.length)).slice(0, bytes);
    const [a, b] = [await msFor(flood), await msFor(plain)];
    const perKb = (ms: number) => `${((ms * 1000) / kb).toFixed(0).padStart(5)} µs/kB`;
    console.log(
      `  ${String(kb).padStart(3)} kB  ${a.toFixed(1).padStart(7)} ms ${perKb(a)}  ${b.toFixed(1).padStart(7)} ms ${perKb(b)}   ${(a / b).toFixed(2)}`,
    );
  }
}

void main();

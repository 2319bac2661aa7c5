/** Which part of the repository a source file belongs to, for the lint tests that check who uses what. */

const TEST = /\.(spec|test)\.ts$/;

/** Who a file belongs to: a product, lib/ (looked through), the platform, or nobody (tests, benchmarks). */
export function ownerOf(path: string): string | null {
  const product = /^(?:subgraphs|rest-adapter)\/(predictions|registry|finance)\//.exec(path);
  if (product) return product[1];
  if (path.startsWith('bot/')) return 'predictions';
  if (path.startsWith('clients/finance-web/')) return 'finance';
  if (TEST.test(path) || /^(test|bench)\//.test(path)) return null;
  if (path.startsWith('lib/')) return 'lib';
  return 'platform';
}

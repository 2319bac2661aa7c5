import { scanSecretSites, SECRET_SITES } from '../../support/platform/secret-sites';

/**
 * "Fix the class, not the case" for guesses at secrets (one attempt throttle): the code is
 * searched for every verification of a secret (test/support/platform/secret-sites.ts), and each must run
 * inside an attempt throttle's reserve-before-check `guard` (lib/attempts.ts). Every function that
 * guards a secret is a site, and every site must be exercised by the concurrency tables
 * (SECRET_SITES: 40 concurrent wrong guesses at each endpoint), so a new site fails here until it is.
 */
const scan = scanSecretSites();

it('every verification of a secret runs inside an attempt throttle guard', () => {
  expect(scan.unguarded).toEqual([]);
});

it("argon2's and otplib's verify are imported only under the names the scan knows", () => {
  expect(scan.verifierImports).toEqual([]);
});

it('every guarded site is exercised by an endpoint of the concurrency tables, and the tables name no stale site', () => {
  expect(scan.sites).toEqual(Object.keys(SECRET_SITES).sort());
  for (const [site, endpoints] of Object.entries(SECRET_SITES)) expect([site, endpoints.length > 0]).toEqual([site, true]);
});

it('the scan finds what it should: a verifier outside a guard is reported', () => {
  // the scan itself can fail: the known sites are there, and a guard-free verifier in a probe is caught
  expect(scan.sites).toEqual(expect.arrayContaining(['subgraphs/finance/identity/domain/identity-service.ts#checkPassword']));
  expect(scanSecretSites({ extra: { 'probe.ts': 'async function f(h: string, p: string) { return argon2Verify(h, p); }' } }).unguarded).toEqual([
    expect.objectContaining({ file: 'probe.ts', line: 1 }),
  ]);
  // an unguarded caller of lib/passwords' verifyPassword (which then has an unguarded caller too)
  expect(scanSecretSites({ extra: { 'probe.ts': 'async function f(h: string, p: string) { return verifyPassword(h, p); }' } }).unguarded).toEqual(
    expect.arrayContaining([expect.objectContaining({ file: 'probe.ts', line: 1 })]),
  );
  expect(scanSecretSites({ extra: { 'probe.ts': "import { verifyPassword as check } from '../lib/passwords';" } }).verifierImports).toEqual([
    expect.objectContaining({ file: 'probe.ts', line: 1 }),
  ]);
});

import { nodeSeatFingerprint, registryUrlProblem } from './registry';

/** The registry a node sends its licence key to. */
describe('registryUrlProblem', () => {
  const production = { NODE_ENV: 'production' as const, VENDOR_REGISTRY_ALLOW_HTTP: false };

  it('production: https anywhere, http:// on this machine only', () => {
    for (const ok of ['https://registry.example.com', 'http://127.0.0.1:8090', 'http://localhost:8090/', 'http://[::1]:8090', 'http://127.3.2.1'])
      expect([ok, registryUrlProblem(ok, production)]).toEqual([ok, undefined]);
    for (const refused of ['http://registry.example.com', 'http://10.0.0.5:8090', 'http://registry:8090', 'ftp://registry.example.com', 'not a url'])
      expect([refused, registryUrlProblem(refused, production)]).toEqual([refused, expect.stringMatching(/licence registry URL/)]);
  });

  it('an http:// registry on a trusted network when VENDOR_REGISTRY_ALLOW_HTTP says so; development allows it', () => {
    expect(registryUrlProblem('http://registry:8090', { ...production, VENDOR_REGISTRY_ALLOW_HTTP: true })).toBeUndefined();
    expect(registryUrlProblem('http://registry:8090', { NODE_ENV: 'development', VENDOR_REGISTRY_ALLOW_HTTP: false })).toBeUndefined();
  });
});

it('a seat per node: two nodes of one host differ, one node keeps its seat', () => {
  expect(nodeSeatFingerprint('host', 'a')).toMatch(/^[0-9a-f]{64}$/);
  expect(nodeSeatFingerprint('host', 'a')).toBe(nodeSeatFingerprint('HOST', 'a'));
  expect(nodeSeatFingerprint('host', 'a')).not.toBe(nodeSeatFingerprint('host', 'b'));
});

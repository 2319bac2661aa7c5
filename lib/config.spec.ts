import { loadConfig, PRODUCT_NAMES, PUBLIC_URLS } from '../test/support/platform/config';
import { describeMode, isLoopback } from './config';

/** Settings checked once at start-up, before anything listens. */

describe('HOST and development mode', () => {
  it('refuses development mode on an address other than loopback, naming both ways out', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'matchday.example']) {
      expect(() => loadConfig({ HOST })).toThrow(/HOST: .* is not a loopback address.*NODE_ENV=production.*ALLOW_DEVELOPMENT_ON_NETWORK=true/);
      expect(() => loadConfig({ HOST, NODE_ENV: 'test' })).toThrow(/not a loopback address/);
    }
  });

  it('accepts it in production, or with the explicit opt-in, and says so', () => {
    expect(
      loadConfig({
        HOST: '0.0.0.0',
        NODE_ENV: 'production',
        PUBLIC_URL_REGISTRY: 'https://registry.example.com',
        FRONTEND_URL: 'https://finance.example.com/app/',
        PUBLIC_URL_PREDICTIONS: 'https://predictions.example.com',
      }).HOST,
    ).toBe('0.0.0.0');
    const opted = loadConfig({ HOST: '0.0.0.0', ALLOW_DEVELOPMENT_ON_NETWORK: 'true' });
    expect(describeMode(opted)).toBe(
      'development mode (NODE_ENV=development): schema introspection and the GraphQL IDE are open to ANYONE who reaches 0.0.0.0 (ALLOW_DEVELOPMENT_ON_NETWORK=true)',
    );
    expect(describeMode(loadConfig({}))).toBe(
      'development mode (NODE_ENV=development): schema introspection and the GraphQL IDE are open to this machine only (HOST=127.0.0.1)',
    );
    expect(describeMode(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'finance', FRONTEND_URL: 'https://finance.example.com/app/' }))).toMatch(
      /^production mode: .* need an administrator key$/,
    );
  });

  it('takes 127.0.0.0/8, ::1 and localhost as loopback', () => {
    for (const host of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect([host, isLoopback(host)]).toEqual([host, true]);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.org', '128.0.0.1']) expect([host, isLoopback(host)]).toEqual([host, false]);
    expect(loadConfig({ HOST: '::1' }).HOST).toBe('::1');
  });
});

describe('the public URL of each product', () => {
  const full: Record<string, string> = {
    PUBLIC_URL_REGISTRY: 'https://registry.example.com',
    FRONTEND_URL: 'https://finance.example.com/app/',
    PUBLIC_URL_PREDICTIONS: 'https://predictions.example.com',
  };
  it('every product has one (a new product is covered here without editing the test)', () => {
    expect(PUBLIC_URLS.map((rule) => rule.product).sort()).toEqual([...PRODUCT_NAMES].sort());
  });
  it.each(PUBLIC_URLS.map((rule) => [rule.key, rule] as const))(
    '%s is required in production when the process runs its product, and only then (links are never built from the Host header or localhost)',
    (key, rule) => {
      const without = { ...full, [key]: undefined };
      // the product alone, and among all three (PRODUCTS unset)
      for (const PRODUCTS of [rule.product, undefined])
        expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS, ...without })).toThrow(
          new RegExp(`${key}: required in production when this process runs ${rule.what} .*e\\.g\\. https:`),
        );
      expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: rule.product, [key]: full[key] })[key]).toBe(full[key]);
      // the other products without it, and development, do without
      const others = PRODUCT_NAMES.filter((p) => p !== rule.product);
      expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: others.join(','), ...without })[key]).toBeUndefined();
      expect(loadConfig({ PRODUCTS: rule.product })[key]).toBeUndefined();
    },
  );
  it('says why: the registry and the finance node would take the Host header, the prediction API localhost', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS: 'registry' })).toThrow(/PUBLIC_URL_REGISTRY: required in production .*Host header/);
    expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS: 'finance' })).toThrow(/FRONTEND_URL: required in production .*Host header/);
    expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS: 'predictions' })).toThrow(/PUBLIC_URL_PREDICTIONS: required in production .*localhost/);
  });
});

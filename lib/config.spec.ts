import { describeMode, isLoopback, loadConfig } from './config';

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
    expect(describeMode(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'finance' }))).toMatch(/^production mode: .* need an administrator key$/);
  });

  it('takes 127.0.0.0/8, ::1 and localhost as loopback', () => {
    for (const host of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect([host, isLoopback(host)]).toEqual([host, true]);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.org', '128.0.0.1']) expect([host, isLoopback(host)]).toEqual([host, false]);
    expect(loadConfig({ HOST: '::1' }).HOST).toBe('::1');
  });
});

describe('PUBLIC_URL_REGISTRY', () => {
  it('is required in production when the process runs the registry (links are never built from the Host header)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL_REGISTRY: required in production .*Host header/);
    expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS: 'registry' })).toThrow(/PUBLIC_URL_REGISTRY/);
    expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'registry', PUBLIC_URL_REGISTRY: 'https://registry.example.com' }).PUBLIC_URL_REGISTRY).toBe(
      'https://registry.example.com',
    );
    // the finance node alone, and development, do without
    expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'finance' }).PUBLIC_URL_REGISTRY).toBeUndefined();
    expect(loadConfig({}).PUBLIC_URL_REGISTRY).toBeUndefined();
  });
});

describe('PUBLIC_URL_PREDICTIONS', () => {
  it('is required in production when the process runs the prediction API (its mails would link to localhost)', () => {
    const registry = { PUBLIC_URL_REGISTRY: 'https://registry.example.com' };
    expect(() => loadConfig({ NODE_ENV: 'production', ...registry })).toThrow(/PUBLIC_URL_PREDICTIONS: required in production .*localhost/);
    expect(() => loadConfig({ NODE_ENV: 'production', PRODUCTS: 'predictions' })).toThrow(/PUBLIC_URL_PREDICTIONS/);
    expect(
      loadConfig({ NODE_ENV: 'production', PRODUCTS: 'predictions', PUBLIC_URL_PREDICTIONS: 'https://predictions.example.com' }).PUBLIC_URL_PREDICTIONS,
    ).toBe('https://predictions.example.com');
    // without the prediction API, and in development, it is not needed
    expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'finance' }).PUBLIC_URL_PREDICTIONS).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', PRODUCTS: 'registry', ...registry }).PUBLIC_URL_PREDICTIONS).toBeUndefined();
    expect(loadConfig({}).PUBLIC_URL_PREDICTIONS).toBeUndefined();
  });
});

import { parse } from 'yaml';
import { DomainError } from '../../../../../lib/errors';
import { FINANCE_NODE_TEMPLATE } from '../demo';
import { MANIFEST_FORMATS, rendererFor } from '.';
import type { ManifestModel } from './model';
import { parseManifestTemplate, templateComponents } from './template';

const model: ManifestModel = {
  product: { code: 'finance-node', name: 'Finance Node' },
  release: { id: 'r1', version: '1.1.0', channel: 'stable', publishedAt: '2025-06-02T09:00:00.000Z' },
  licence: { id: 'l1', maskedKey: 'LIC-ABCD-****-****', maintenanceUntil: '2026-01-01', organisation: 'Acme' },
  registryUrl: 'https://registry.example',
  generatedAt: new Date('2025-07-01T00:00:00Z'),
  volumes: ['pgdata'],
  artifacts: [],
  services: [
    {
      name: 'backend',
      image: 'finance-node/backend:1.1.0',
      artifact: {
        id: 'a1',
        component: 'backend',
        filename: 'finance-node-backend-1.1.0.docker.tar.gz',
        size: 10,
        sha256: 'ab'.repeat(32),
        mediaType: 'application/gzip',
        image: 'finance-node/backend:1.1.0',
        imageId: `sha256:${'cd'.repeat(32)}`,
        downloadUrl: 'https://registry.example/api/v1/artifacts/a1/download',
      },
      ports: ['8000:8000'],
      dependsOn: [],
      volumes: [],
      restart: 'unless-stopped',
      environment: [
        { name: 'VENDOR_LICENSE_TOKEN', value: { kind: 'literal', value: 'eyJ.token.sig' } },
        { name: 'PRICE', value: { kind: 'literal', value: 'costs $5' } },
        { name: 'DATABASE_URL', value: { kind: 'literal', value: 'postgres://u:${POSTGRES_PASSWORD}@db/x' } },
        { name: 'SERVER_JWT_KEY', value: { kind: 'required', message: 'set SERVER_JWT_KEY' } },
        { name: 'ALLOWED_HOSTS', value: { kind: 'optional', default: 'localhost' } },
      ],
    },
  ],
};
model.artifacts = [model.services[0].artifact!];

describe('manifest formats', () => {
  it('are a map of renderers: compose and kubernetes, and an unknown format is a 400 naming the supported ones', () => {
    expect(Object.keys(MANIFEST_FORMATS)).toEqual(['compose', 'kubernetes']);
    try {
      rendererFor('helm');
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).status).toBe(400);
      expect((err as DomainError).message).toBe('Unsupported manifest format "helm"; supported: compose, kubernetes.');
    }
    expect(() => rendererFor('__proto__')).toThrow(/Unsupported/);
  });

  it('compose: images with their digests, licence values filled in, secrets as required variables, $ escaped', () => {
    const rendered = rendererFor('compose')(model);
    expect(rendered.contentType).toBe('application/yaml; charset=utf-8');
    expect(rendered.filename).toBe('finance-node-1.1.0.compose.yaml');
    const doc = parse(rendered.content);
    expect(doc.name).toBe('finance-node');
    const backend = doc.services.backend;
    expect(backend.image).toBe('finance-node/backend:1.1.0');
    expect(backend.labels).toEqual({
      'io.matchday.artifact.id': 'a1',
      'io.matchday.artifact.sha256': 'ab'.repeat(32),
      'io.matchday.image.id': `sha256:${'cd'.repeat(32)}`,
    });
    expect(backend.environment).toEqual({
      VENDOR_LICENSE_TOKEN: 'eyJ.token.sig',
      PRICE: 'costs $$5',
      DATABASE_URL: 'postgres://u:${POSTGRES_PASSWORD}@db/x',
      SERVER_JWT_KEY: '${SERVER_JWT_KEY:?set SERVER_JWT_KEY}',
      ALLOWED_HOSTS: '${ALLOWED_HOSTS:-localhost}',
    });
    expect(doc.volumes).toEqual({ pgdata: {} });
    expect(doc['x-artifacts']).toEqual([
      expect.objectContaining({ id: 'a1', filename: 'finance-node-backend-1.1.0.docker.tar.gz', size: 10, sha256: 'ab'.repeat(32) }),
    ]);
    expect(doc['x-licence']).toMatchObject({ id: 'l1', key: 'LIC-ABCD-****-****', maintenanceUntil: '2026-01-01' });
    expect(rendered.content.startsWith('# Finance Node 1.1.0 (stable) for Acme')).toBe(true);
  });
});

describe('manifest templates', () => {
  it("the finance node's: every variable of docs/contracts/finance-node.md's configuration contract the node uses, the licence's filled in", () => {
    const template = parseManifestTemplate(FINANCE_NODE_TEMPLATE);
    expect(templateComponents(template)).toEqual(['backend', 'frontend']);
    const env = template.services.backend.environment;
    for (const name of [
      'APP_NAME',
      'APP_VERSION',
      'DEBUG',
      'FRAMEWORK_SECRET_KEY',
      'SERVER_JWT_KEY',
      'ALLOWED_HOSTS',
      'CSRF_TRUSTED_ORIGINS',
      'CORS_ALLOWED_ORIGINS',
      'FRONTEND_URL',
      'PORT',
      'CORS_ALLOW_HEADERS',
      'POSTGRES_DB',
      'POSTGRES_USER',
      'POSTGRES_PASSWORD',
      'DATABASE_URL',
      'VENDOR_LICENSE_ENGINE_URL',
      'VENDOR_API_KEY',
      'VENDOR_DEPLOYMENT_ID',
      'VENDOR_LICENSE_TOKEN',
      'VENDOR_PUBLIC_KEY',
      'BROKERAGE_API_KEY_ID',
      'BROKERAGE_API_SECRET_KEY',
    ]) {
      expect([name, env[name] !== undefined]).toEqual([name, true]);
    }
    expect(env.VENDOR_LICENSE_TOKEN).toBe('{{licence.token}}');
    expect(env.FRAMEWORK_SECRET_KEY).toEqual({ required: expect.any(String) });
    expect(env.CORS_ALLOW_HEADERS).toBe('Authorization,Content-Type,Accept,X-Request-ID,X-Request-Timestamp,X-Client-Platform,X-Client-Version');
  });

  it('are checked: shape, placeholders, references, image or component', () => {
    const bad = (template: unknown) => {
      try {
        parseManifestTemplate(template);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(bad({ services: {} })).toMatch(/at least one service/);
    expect(bad({ services: { a: { image: 'x', environment: { X: '{{licence.secret}}' } } } })).toMatch(/unknown placeholder \{\{licence\.secret\}\}/);
    expect(bad({ services: { a: { image: 'x', dependsOn: ['b'] } } })).toMatch(/no service "b"/);
    expect(bad({ services: { a: { image: 'x', component: 'backend' } } })).toMatch(/either a component/);
    expect(bad({ services: { a: { image: 'x', environment: { X: { required: 'a', optional: 'b' } } } } })).toMatch(/Invalid manifest template/);
    expect(bad({ services: { a: { image: 'x' } }, extra: true })).toMatch(/Invalid manifest template/);
  });
});

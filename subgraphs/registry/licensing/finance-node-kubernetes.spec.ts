import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { DomainError } from '../../../lib/errors';
import {
  CLIENT_HEADERS,
  CUSTOMER_CREDENTIALS,
  LICENCE_VARIABLES,
  financeNodeRelease,
  renderFinanceNodeKubernetes,
  renderKubernetesManifest,
  type FinanceNodeRelease,
  type ManifestModelLike,
} from './finance-node-kubernetes';
import type { KubernetesObject } from '../../../lib/kubernetes/workload';
import { parseYamlObjects, validateObject } from '../../../test/support/platform/kubernetes';

/**
 * The finance node's Kubernetes manifests as the licence registry hands them out (format=kubernetes):
 * every object valid against the Kubernetes API schemas, the licence's values in a Secret, the
 * customer's credentials referenced and never written, the release's images pinned.
 */

/** Every environment name of the finance node's configuration contract (docs/contracts/finance-node.md, "Configuration contract"). */
const CONTRACT_SETTINGS = [
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
  'REDIS_PASSWORD',
  'CELERY_BROKER_URL',
  'CELERY_RESULT_BACKEND',
  'VENDOR_LICENSE_ENGINE_URL',
  'VENDOR_API_KEY',
  'VENDOR_DEPLOYMENT_ID',
  'VENDOR_LICENSE_TOKEN',
  'VENDOR_PUBLIC_KEY',
  'BROKERAGE_API_KEY_ID',
  'BROKERAGE_API_SECRET_KEY',
];

// a token with every character YAML treats specially
const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJsaWMiOiJMSUMtQUJDRCJ9.c2ln: #&*!|>\'"%@`{}[],?-';
const PUBLIC_KEY = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';

const sample: FinanceNodeRelease = {
  product: { code: 'finance-node', name: 'Finance Node' },
  release: { id: '3f1c2a9e-0d4b-4c55-9d7e-5a1b2c3d4e5f', version: '1.1.0', channel: 'stable' },
  licence: { id: 'b2c3', maskedKey: 'LIC-ABCD-****-****', organisation: 'Acme Ltd', maintenanceUntil: '2027-01-31' },
  registryUrl: 'https://registry.example.com',
  generatedAt: new Date('2026-11-22T10:00:00Z'),
  images: {
    backend: {
      image: 'finance-node/backend:1.1.0',
      imageId: `sha256:${'a'.repeat(64)}`,
      archive: {
        filename: 'finance-node-backend-1.1.0.docker.tar.gz',
        sha256: 'b'.repeat(64),
        downloadUrl: 'https://registry.example.com/api/v1/artifacts/1/download',
      },
    },
    frontend: {
      image: 'finance-node/frontend:1.1.0',
      imageId: `sha256:${'c'.repeat(64)}`,
      archive: {
        filename: 'finance-node-frontend-1.1.0.docker.tar.gz',
        sha256: 'd'.repeat(64),
        downloadUrl: 'https://registry.example.com/api/v1/artifacts/2/download',
      },
    },
  },
  licenceValues: {
    VENDOR_LICENSE_ENGINE_URL: 'https://registry.example.com',
    VENDOR_API_KEY: 'LIC-ABCD-EFGH-JKLM',
    VENDOR_LICENSE_TOKEN: TOKEN,
    VENDOR_PUBLIC_KEY: PUBLIC_KEY,
  },
  host: 'finance.acme.example',
};

const render = (input: FinanceNodeRelease = sample) => {
  const rendered = renderFinanceNodeKubernetes(input);
  return { rendered, objects: parseYamlObjects(rendered.content) };
};
const find = <T>(objects: KubernetesObject[], kind: string, name?: string) =>
  objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name)) as unknown as T[];

it('renders objects that are all valid against the Kubernetes API schemas, in the namespace it creates first', () => {
  const { rendered, objects } = render();
  expect(rendered.contentType).toBe('application/yaml; charset=utf-8');
  expect(rendered.filename).toBe('finance-node-1.1.0.kubernetes.yaml');
  for (const object of objects) validateObject(object);
  expect(objects.map((o) => `${o.kind}/${o.metadata!.name}`)).toEqual([
    'Namespace/finance-node',
    'Secret/finance-node-licence',
    'ConfigMap/finance-node-settings',
    'Deployment/finance-node-backend',
    'Service/finance-node-backend',
    'HorizontalPodAutoscaler/finance-node-backend',
    'PodDisruptionBudget/finance-node-backend',
    'Deployment/finance-node-frontend',
    'Service/finance-node-frontend',
    'HorizontalPodAutoscaler/finance-node-frontend',
    'PodDisruptionBudget/finance-node-frontend',
    'Ingress/finance-node',
  ]);
  for (const o of objects.slice(1)) expect(o.metadata!.namespace).toBe('finance-node');
  expect(
    render({ ...sample, namespace: 'acme-finance' })
      .objects.slice(1)
      .map((o) => o.metadata!.namespace),
  ).toEqual(Array(11).fill('acme-finance'));
});

it('puts the licence variables in a Secret, byte for byte, that the backend reads whole', () => {
  const { objects } = render();
  const [secret] = find<ISecret>(objects, 'Secret');
  expect(secret.stringData).toEqual(sample.licenceValues);
  expect(Object.keys(secret.stringData!)).toEqual([...LICENCE_VARIABLES]);
  const [backend] = find<IDeployment>(objects, 'Deployment', 'finance-node-backend');
  expect(backend.spec!.template.spec!.containers[0].envFrom).toContainEqual({ secretRef: { name: 'finance-node-licence' } });
  // the frontend never sees the licence
  const [frontend] = find<IDeployment>(objects, 'Deployment', 'finance-node-frontend');
  expect(JSON.stringify(frontend)).not.toContain('licence');
});

it('gives the backend every setting of the contract it needs, by the contract’s names, and writes none of the customer’s credentials', () => {
  const { rendered, objects } = render();
  const [settings] = find<IConfigMap>(objects, 'ConfigMap');
  const [backend] = find<IDeployment>(objects, 'Deployment', 'finance-node-backend');
  const container = backend.spec!.template.spec!.containers[0];
  const names = [...Object.keys(settings.data!), ...LICENCE_VARIABLES, ...container.env!.map((e) => e.name)];
  expect(names.filter((n) => !CONTRACT_SETTINGS.includes(n))).toEqual([]);
  expect(names).toEqual(expect.arrayContaining(['FRAMEWORK_SECRET_KEY', 'SERVER_JWT_KEY', 'DATABASE_URL', 'ALLOWED_HOSTS', 'CORS_ALLOW_HEADERS', 'PORT']));
  expect(settings.data).toMatchObject({
    APP_NAME: 'Finance Node',
    APP_VERSION: '1.1.0',
    DEBUG: 'false',
    PORT: '8000',
    ALLOWED_HOSTS: 'finance.acme.example',
    CSRF_TRUSTED_ORIGINS: 'https://finance.acme.example',
    CORS_ALLOWED_ORIGINS: 'https://finance.acme.example',
    FRONTEND_URL: 'https://finance.acme.example',
  });
  expect(settings.data!.CORS_ALLOW_HEADERS.split(',')).toEqual(CLIENT_HEADERS);
  expect(CLIENT_HEADERS).toHaveLength(7);
  // the customer's credentials: references to a Secret they create (the header shows the command)
  for (const e of container.env!) {
    expect(e.value).toBeUndefined();
    expect(e.valueFrom!.secretKeyRef).toEqual({
      name: 'finance-node-credentials',
      key: e.name,
      ...((CUSTOMER_CREDENTIALS.optional as readonly string[]).includes(e.name) ? { optional: true } : {}),
    });
  }
  expect(rendered.content).toContain('kubectl -n finance-node create secret generic finance-node-credentials');
  expect(find(objects, 'Secret')).toHaveLength(1);
});

it('runs the release’s images, recording their image ids and archive digests, and pulls by digest when there is one', () => {
  const image = (objects: KubernetesObject[], c: string) => find<IDeployment>(objects, 'Deployment', `finance-node-${c}`)[0].spec!.template;
  const { objects, rendered } = render();
  expect(image(objects, 'backend').spec!.containers[0].image).toBe('finance-node/backend:1.1.0');
  expect(image(objects, 'backend').metadata!.annotations).toEqual({
    'registry.matchday.io/release': sample.release.id,
    'registry.matchday.io/archive-sha256': 'b'.repeat(64),
    'registry.matchday.io/image-id': `sha256:${'a'.repeat(64)}`,
  });
  expect(rendered.content).toContain(`docker load -i finance-node-backend-1.1.0.docker.tar.gz      # sha256 ${'b'.repeat(64)}`);
  const pushed = render({ ...sample, imageRegistry: 'registry.acme.example/vendor/' }).objects;
  expect(image(pushed, 'frontend').spec!.containers[0].image).toBe('registry.acme.example/vendor/finance-node/frontend:1.1.0');
  const digest = `sha256:${'e'.repeat(64)}`;
  const pinned = render({
    ...sample,
    imageRegistry: 'registry.acme.example:5000',
    images: { ...sample.images, backend: { ...sample.images.backend, digest } },
  }).objects;
  expect(image(pinned, 'backend').spec!.containers[0].image).toBe(`registry.acme.example:5000/finance-node/backend@${digest}`);
});

it('probes the backend on the contract’s endpoints and publishes the node on one HTTPS host', () => {
  const { objects } = render();
  const c = find<IDeployment>(objects, 'Deployment', 'finance-node-backend')[0].spec!.template.spec!.containers[0];
  expect([c.ports, c.livenessProbe!.httpGet!.path, c.readinessProbe!.httpGet!.path, c.startupProbe!.httpGet!.path]).toEqual([
    [{ name: 'http', containerPort: 8000, protocol: 'TCP' }],
    '/livez',
    '/readyz',
    '/healthz',
  ]);
  const [ingress] = find<IIngress>(objects, 'Ingress');
  expect(ingress.spec!.tls).toEqual([{ hosts: ['finance.acme.example'], secretName: 'finance-node-tls' }]);
  const routes = ingress.spec!.rules![0].http!.paths.map((p) => [p.path, p.backend.service!.name]);
  expect(routes).toEqual([
    ['/api', 'finance-node-backend'],
    ['/admin', 'finance-node-backend'],
    ['/swagger', 'finance-node-backend'],
    ['/swagger.json', 'finance-node-backend'],
    ['/redoc', 'finance-node-backend'],
    ['/', 'finance-node-frontend'],
  ]);
});

it('is a pure function: the same input renders the same bytes', () => {
  expect(render().rendered.content).toBe(render().rendered.content);
});

describe('from the registry’s manifest model', () => {
  const literal = (value: string) => ({ kind: 'literal' as const, value });
  const model: ManifestModelLike = {
    product: sample.product,
    release: sample.release,
    licence: sample.licence,
    registryUrl: sample.registryUrl,
    generatedAt: sample.generatedAt,
    services: [
      { name: 'postgres', image: 'postgres:16', environment: [{ name: 'POSTGRES_PASSWORD', value: { kind: 'required' } }] },
      {
        name: 'backend',
        image: sample.images.backend.image,
        artifact: { ...sample.images.backend.archive, imageId: sample.images.backend.imageId },
        environment: [
          { name: 'APP_NAME', value: literal('Finance Node') },
          ...LICENCE_VARIABLES.map((v) => ({ name: v, value: literal(sample.licenceValues[v]) })),
          { name: 'SERVER_JWT_KEY', value: { kind: 'required' } },
        ],
      },
      {
        name: 'frontend',
        image: sample.images.frontend.image,
        artifact: { ...sample.images.frontend.archive, imageId: sample.images.frontend.imageId },
        environment: [],
      },
    ],
  };

  it('takes the images from the backend and frontend artifacts and the licence values from the backend', () => {
    const { host: _host, ...withoutHost } = sample;
    expect(financeNodeRelease(model)).toEqual({ ...withoutHost, licenceValues: sample.licenceValues, images: sample.images });
    expect(renderKubernetesManifest(model).content).toBe(renderFinanceNodeKubernetes({ ...sample, host: undefined }).content);
  });

  it('answers 400 for a release that is not the finance node’s shape', () => {
    const without = { ...model, services: model.services.filter((s) => s.name !== 'frontend') };
    expect(() => renderKubernetesManifest(without)).toThrow(DomainError);
    expect(() => renderKubernetesManifest(without)).toThrow(/no "frontend" service/);
    const unlicensed = { ...model, services: model.services.map((s) => (s.name === 'backend' ? { ...s, environment: [] } : s)) };
    try {
      renderKubernetesManifest(unlicensed);
      throw new Error('rendered');
    } catch (err) {
      expect([(err as DomainError).status, (err as Error).message]).toEqual([400, expect.stringMatching(/VENDOR_LICENSE_ENGINE_URL/)]);
    }
  });
});

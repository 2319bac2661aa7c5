import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { badInput } from '../../../lib/errors';
import { secretRef, toYaml, workloadObjects, type KubernetesObject, type Workload } from '../../../lib/kubernetes/workload';

/**
 * The finance node as Kubernetes manifests, tailored to one licence: what the licence registry answers
 * for `GET /api/v1/releases/<id>/manifest?format=kubernetes`, as `format=compose` answers a compose
 * file. A pure function of the release, its images and the licence's values.
 */

/** The licence's values the node reads (finance node contract, "Licensing"), put in a Secret. */
export const LICENCE_VARIABLES = ['VENDOR_LICENSE_ENGINE_URL', 'VENDOR_API_KEY', 'VENDOR_LICENSE_TOKEN', 'VENDOR_PUBLIC_KEY'] as const;
export type LicenceVariable = (typeof LICENCE_VARIABLES)[number];

/** The customer's own credentials: never in the file, a Secret they create (the header says how). */
export const CUSTOMER_CREDENTIALS = {
  required: ['DATABASE_URL', 'FRAMEWORK_SECRET_KEY', 'SERVER_JWT_KEY'],
  optional: ['VENDOR_DEPLOYMENT_ID', 'BROKERAGE_API_KEY_ID', 'BROKERAGE_API_SECRET_KEY'],
} as const;

/** The seven headers every client sends: the CORS allow-list must hold them all (finance node contract). */
export const CLIENT_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Request-ID', 'X-Request-Timestamp', 'X-Client-Platform', 'X-Client-Version'];

/** The backend's port and probes, as the finance node contract states them. */
const BACKEND = { port: 8000, liveness: '/livez', readiness: '/readyz', startup: '/healthz' };
/** The web client (the frontend image: rest-adapter/finance/web-main.ts) on 8080, its probe /healthz. */
const FRONTEND = { port: 8080, path: '/healthz' };
/** Paths the backend serves (contract §4); the rest of the host is the web client. */
const BACKEND_PATHS: { path: string; pathType: 'Prefix' | 'Exact' }[] = [
  { path: '/api', pathType: 'Prefix' },
  { path: '/admin', pathType: 'Prefix' },
  { path: '/swagger', pathType: 'Prefix' },
  { path: '/swagger.json', pathType: 'Exact' },
  { path: '/redoc', pathType: 'Prefix' },
];

export type FinanceNodeComponent = 'backend' | 'frontend';

export interface ReleaseImage {
  /** `repository:tag` as the release's archive loads it (`docker load`), e.g. `finance-node/backend:1.1.0`. */
  image: string;
  /** `sha256:…` of the image configuration: the IMAGE ID `docker images --no-trunc` shows after loading. */
  imageId: string | null;
  /** A registry manifest digest, when the release's image is in an OCI registry: the pods then pull by digest. */
  digest?: string;
  /** The archive to download and its SHA-256. */
  archive: { filename: string; sha256: string; downloadUrl: string };
}

export interface FinanceNodeRelease {
  product: { code: string; name: string };
  release: { id: string; version: string; channel: string };
  licence: { id: string; maskedKey: string; organisation: string; maintenanceUntil: string };
  registryUrl: string;
  generatedAt: Date;
  images: Record<FinanceNodeComponent, ReleaseImage>;
  licenceValues: Record<LicenceVariable, string>;
  /** Default: the product code. */
  namespace?: string;
  /** The public host name of the node (Ingress, allowed hosts, origins). Default: `<product code>.example.com`. */
  host?: string;
  /** Where the customer pushes the loaded images (`registry.example.com/acme`); unset: the images as loaded on each node. */
  imageRegistry?: string;
}

export interface RenderedManifest {
  content: string;
  contentType: string;
  filename: string;
}

const ANNOTATION = 'registry.matchday.io';

function imageReference(image: ReleaseImage, registry: string | undefined): string {
  const name = registry ? `${registry.replace(/\/+$/, '')}/${image.image}` : image.image;
  return image.digest ? `${name.replace(/:[^/:]+$/, '')}@${image.digest}` : name;
}

/** Kubernetes manifests of the finance node for one licence, as one multi-document YAML file. */
export function renderFinanceNodeKubernetes(input: FinanceNodeRelease): RenderedManifest {
  const namespace = input.namespace ?? input.product.code;
  const host = input.host ?? `${input.product.code}.example.com`;
  const origin = `https://${host}`;
  const name = (suffix: string) => `${input.product.code}-${suffix}`;
  const partOf = input.product.code;
  const names = { licence: name('licence'), credentials: name('credentials'), settings: name('settings'), tls: name('tls') };
  const labels = { 'app.kubernetes.io/part-of': partOf, 'app.kubernetes.io/version': input.release.version };
  const meta = (objectName: string) => ({ name: objectName, namespace, labels });

  const namespaceObject: INamespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels } };
  const licence: ISecret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(names.licence),
    type: 'Opaque',
    stringData: Object.fromEntries(LICENCE_VARIABLES.map((v) => [v, input.licenceValues[v]])),
  };
  const settings: IConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(names.settings),
    data: {
      APP_NAME: input.product.name,
      APP_VERSION: input.release.version,
      DEBUG: 'false',
      PORT: String(BACKEND.port),
      ALLOWED_HOSTS: host,
      CSRF_TRUSTED_ORIGINS: origin,
      CORS_ALLOWED_ORIGINS: origin,
      CORS_ALLOW_HEADERS: CLIENT_HEADERS.join(','),
      FRONTEND_URL: origin,
    },
  };
  const annotations = (c: FinanceNodeComponent) => {
    const image = input.images[c];
    return {
      [`${ANNOTATION}/release`]: input.release.id,
      [`${ANNOTATION}/archive-sha256`]: image.archive.sha256,
      ...(image.imageId ? { [`${ANNOTATION}/image-id`]: image.imageId } : {}),
    };
  };
  const common = { partOf, security: { readOnlyRoot: false }, scaling: { min: 2, max: 6, cpuPercent: 70 } } as const;
  const backend: Workload = {
    ...common,
    name: name('backend'),
    component: 'backend',
    image: imageReference(input.images.backend, input.imageRegistry),
    ports: [{ name: 'http', port: BACKEND.port }],
    probes: { port: 'http', liveness: BACKEND.liveness, readiness: BACKEND.readiness, startup: BACKEND.startup, startupSeconds: 300 },
    env: [
      ...CUSTOMER_CREDENTIALS.required.map((v) => secretRef(v, names.credentials)),
      ...CUSTOMER_CREDENTIALS.optional.map((v) => secretRef(v, names.credentials, v, true)),
    ],
    envFrom: [{ configMapRef: { name: names.settings } }, { secretRef: { name: names.licence } }],
    resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } },
    annotations: annotations('backend'),
  };
  const frontend: Workload = {
    ...common,
    name: name('frontend'),
    component: 'frontend',
    image: imageReference(input.images.frontend, input.imageRegistry),
    ports: [{ name: 'http', port: FRONTEND.port }],
    probes: { port: 'http', liveness: FRONTEND.path, readiness: FRONTEND.path, startup: FRONTEND.path, startupSeconds: 60 },
    // browsers call the backend on the same host (the Ingress routes its paths)
    env: [{ name: 'API_URL', value: origin }],
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    annotations: annotations('frontend'),
  };
  const inNamespace = (o: KubernetesObject) => ({ ...o, metadata: { ...o.metadata, namespace } });
  const backendRoute = (path: { path: string; pathType: 'Prefix' | 'Exact' }) => ({
    ...path,
    backend: { service: { name: backend.name, port: { name: 'http' } } },
  });
  const ingress: IIngress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(input.product.code),
    spec: {
      tls: [{ hosts: [host], secretName: names.tls }],
      rules: [
        {
          host,
          http: {
            paths: [
              ...BACKEND_PATHS.map(backendRoute),
              { path: '/', pathType: 'Prefix', backend: { service: { name: frontend.name, port: { name: 'http' } } } },
            ],
          },
        },
      ],
    },
  };

  const objects = [namespaceObject, licence, settings, ...workloadObjects(backend).map(inNamespace), ...workloadObjects(frontend).map(inNamespace), ingress];
  const n = `-n ${namespace}`;
  const header = [
    `${input.product.name} ${input.release.version} (${input.release.channel}) for ${input.licence.organisation}, licence ${input.licence.maskedKey}.`,
    `Generated by the licence registry (${input.registryUrl}) at ${input.generatedAt.toISOString()}.`,
    `It holds your licence token (Secret ${names.licence}): keep it private.`,
    '',
    'Install:',
    ...(['backend', 'frontend'] as const).map(
      (c) => `  docker load -i ${input.images[c].archive.filename}      # sha256 ${input.images[c].archive.sha256}, image ${input.images[c].image}`,
    ),
    input.imageRegistry
      ? `  docker tag, then docker push each image to ${input.imageRegistry}/ (the pods pull them from there)`
      : '  then push each image to your registry (and set it with `kustomize edit set image`), or import it on every node',
    `  kubectl apply -f <this file>          # namespace ${namespace}, then the rest`,
    `  kubectl ${n} create secret generic ${names.credentials} \\`,
    `    --from-literal=DATABASE_URL='postgres://<user>:<password>@<host>:5432/<database>' \\`,
    `    --from-literal=FRAMEWORK_SECRET_KEY="$(openssl rand -hex 32)" --from-literal=SERVER_JWT_KEY="$(openssl rand -base64 48)"`,
    `    (optional keys: ${CUSTOMER_CREDENTIALS.optional.join(', ')})`,
    `  kubectl ${n} create secret tls ${names.tls} --cert=tls.crt --key=tls.key      # the certificate of ${host}`,
  ];
  return {
    content: toYaml(objects, header),
    contentType: 'application/yaml; charset=utf-8',
    filename: `${input.product.code}-${input.release.version}.kubernetes.yaml`,
  };
}

/**
 * The part of the registry's manifest model (one release's deployment for one licence, every value
 * resolved) that the Kubernetes format reads: the artifacts of the backend and frontend services and
 * the licence's values in the backend's environment.
 */
export interface ManifestModelLike {
  product: { code: string; name: string };
  release: { id: string; version: string; channel: string };
  licence: { id: string; maskedKey: string; maintenanceUntil: string; organisation: string };
  registryUrl: string;
  generatedAt: Date;
  services: {
    name: string;
    image: string;
    artifact?: { filename: string; sha256: string; imageId: string | null; downloadUrl: string };
    environment: { name: string; value: { kind: 'literal'; value: string } | { kind: 'optional'; default: string } | { kind: 'required' } }[];
  }[];
}

/** The registry's model of a finance node release as the renderer's input; 400 for a product without that shape. */
export function financeNodeRelease(model: ManifestModelLike): FinanceNodeRelease {
  const service = (component: FinanceNodeComponent) => {
    const s = model.services.find((x) => x.name === component);
    if (!s?.artifact) throw badInput(`format=kubernetes renders the finance node: this release has no "${component}" service built from an artifact.`);
    return { ...s, artifact: s.artifact };
  };
  const image = (component: FinanceNodeComponent): ReleaseImage => {
    const s = service(component);
    return {
      image: s.image,
      imageId: s.artifact.imageId,
      archive: { filename: s.artifact.filename, sha256: s.artifact.sha256, downloadUrl: s.artifact.downloadUrl },
    };
  };
  const environment = service('backend').environment;
  const licenceValues = Object.fromEntries(
    LICENCE_VARIABLES.map((v) => {
      // a value filled from the licence, or a default the customer may override (the registry's URL)
      const value = environment.find((e) => e.name === v)?.value;
      const filled = value?.kind === 'literal' ? value.value : value?.kind === 'optional' ? value.default : '';
      if (!filled) throw badInput(`format=kubernetes: the release's backend does not set ${v} from the licence.`);
      return [v, filled];
    }),
  ) as Record<LicenceVariable, string>;
  const { product, release, licence, registryUrl, generatedAt } = model;
  return {
    product: { code: product.code, name: product.name },
    release: { id: release.id, version: release.version, channel: release.channel },
    licence: { id: licence.id, maskedKey: licence.maskedKey, organisation: licence.organisation, maintenanceUntil: licence.maintenanceUntil },
    registryUrl,
    generatedAt,
    images: { backend: image('backend'), frontend: image('frontend') },
    licenceValues,
  };
}

/** The registry's `format=kubernetes`: its manifest model in, the finance node's manifests out. */
export const renderKubernetesManifest = (model: ManifestModelLike): RenderedManifest => renderFinanceNodeKubernetes(financeNodeRelease(model));

import type { Logger } from '../../../../lib/logger';
import type { ObjectStore } from '../../../../lib/object-store';
import type { ArtifactService } from './artifacts';
import type { CatalogueService } from './catalogue';
import { buildImageArchive } from './docker-archive';
import type { LicenceService } from './licences';
import type { ManifestTemplate } from './manifests/template';
import type { ReleaseService } from './releases';
import type { SigningService } from './signing';

/**
 * The demo of `npm start` (development only): the product this registry distributes is this
 * repository's own finance node. Releases 1.0.0 and 1.1.0 on stable and 1.2.0-rc.1 on rc, each with a
 * backend and a frontend `docker load` archive (small, one layer, reproducible), and one organisation
 * with an Active licence. Seeding is idempotent and repairs missing objects (a new DATA_DIR).
 */
export const DEMO_PRODUCT = 'finance-node';
export const DEMO_ORGANISATION = 'demo';
const DEMO_LICENCE_NAME = 'Demo licence';
const ACTOR = 'system:demo';

const CLIENT_HEADERS = 'Authorization,Content-Type,Accept,X-Request-ID,X-Request-Timestamp,X-Client-Platform,X-Client-Version';

/**
 * The finance node's deployment: its configuration contract (docs/contracts/finance-node.md) with the licence's
 * values filled in per licence and the customer's secrets left for them to set.
 */
export const FINANCE_NODE_TEMPLATE: ManifestTemplate = {
  services: {
    postgres: {
      // where no image registry is reachable: POSTGRES_IMAGE=localhost/matchday/postgres:15-bookworm (scripts/container-base.sh)
      image: '${POSTGRES_IMAGE:-postgres:16}',
      ports: [],
      dependsOn: [],
      restart: 'unless-stopped',
      environment: {
        POSTGRES_DB: 'finance',
        POSTGRES_USER: 'finance',
        POSTGRES_PASSWORD: { required: 'set POSTGRES_PASSWORD, the database password' },
      },
      volumes: ['pgdata:/var/lib/postgresql/data'],
    },
    backend: {
      component: 'backend',
      ports: ['${BACKEND_PORT:-8000}:8000'],
      dependsOn: ['postgres'],
      volumes: [],
      restart: 'unless-stopped',
      environment: {
        APP_NAME: '{{product.name}}',
        APP_VERSION: '{{release.version}}',
        DEBUG: 'false',
        PORT: '8000',
        FRAMEWORK_SECRET_KEY: { required: 'set FRAMEWORK_SECRET_KEY, a unique 64-character secret' },
        SERVER_JWT_KEY: { required: 'set SERVER_JWT_KEY, the signing key of access tokens (unique per deployment)' },
        ALLOWED_HOSTS: { optional: 'comma-separated host names', default: 'localhost' },
        CSRF_TRUSTED_ORIGINS: { optional: 'origins allowed to submit state-changing requests', default: 'http://localhost:8080' },
        CORS_ALLOWED_ORIGINS: { optional: 'client origins allowed', default: 'http://localhost:8080' },
        CORS_ALLOW_HEADERS: CLIENT_HEADERS,
        FRONTEND_URL: { optional: 'public client URL', default: 'http://localhost:8080' },
        POSTGRES_DB: 'finance',
        POSTGRES_USER: 'finance',
        POSTGRES_PASSWORD: { required: 'set POSTGRES_PASSWORD, the database password' },
        DATABASE_URL: 'postgres://finance:${POSTGRES_PASSWORD}@postgres:5432/finance',
        VENDOR_LICENSE_ENGINE_URL: { optional: 'the licence registry as this node reaches it', default: '{{registry.url}}' },
        VENDOR_REGISTRY_ALLOW_HTTP: {
          optional: 'true: an http:// registry on a network you trust (production refuses one that is not on this machine)',
          default: 'false',
        },
        VENDOR_API_KEY: '{{licence.key}}',
        VENDOR_DEPLOYMENT_ID: { optional: 'the deploymentKey of this node (the installer writes it to .env)', default: '' },
        VENDOR_MACHINE_FINGERPRINT: { optional: 'this machine, as the installer registered it (the installer writes it to .env)', default: '' },
        VENDOR_LICENSE_TOKEN: '{{licence.token}}',
        VENDOR_PUBLIC_KEY: '{{licence.publicKey}}',
        BROKERAGE_API_KEY_ID: { optional: 'equities brokerage key id (or set it in the admin console)', default: '' },
        BROKERAGE_API_SECRET_KEY: { optional: 'equities brokerage secret (or set it in the admin console)', default: '' },
      },
    },
    frontend: {
      component: 'frontend',
      ports: ['${FRONTEND_PORT:-8080}:8080'],
      dependsOn: ['backend'],
      volumes: [],
      restart: 'unless-stopped',
      environment: {
        API_URL: { optional: 'the backend URL browsers use', default: 'http://localhost:8000' },
      },
    },
  },
  volumes: ['pgdata'],
};

interface DemoRelease {
  version: string;
  channel: 'stable' | 'rc';
  /** The release's effective date (maintenance is judged by it); null: published at seeding. */
  backdatedTo: string | null;
  changelog: string;
}

const RELEASES: DemoRelease[] = [
  {
    version: '1.0.0',
    channel: 'stable',
    backdatedTo: '2025-01-15T09:00:00Z',
    changelog: 'First release.\n- Wallet, virtual accounts and cards\n- Investing through a selectable brokerage\n- Shop and utilities',
  },
  {
    version: '1.1.0',
    channel: 'stable',
    backdatedTo: '2025-06-02T09:00:00Z',
    changelog: 'Licence enforcement and disputes.\n- Offline licence verification (Ed25519)\n- Dispute and support system\n- Fractional shares',
  },
  {
    version: '1.2.0-rc.1',
    channel: 'rc',
    backdatedTo: null,
    changelog: 'Release candidate of 1.2.0.\n- Whitelabel frontend builds\n- Crypto deposits and swaps',
  },
];

/** The demo's image archives: deterministic bytes, so a repaired object has the recorded SHA-256. */
export function demoImage(version: string, component: 'backend' | 'frontend', created: Date) {
  const repoTag = `${DEMO_PRODUCT}/${component}:${version}`;
  const note = `Finance platform node ${version}, ${component} (demo image distributed by the matchday licence registry).\n`;
  return buildImageArchive(
    component === 'backend'
      ? {
          repoTag,
          created,
          files: [
            { path: 'srv/finance-node/VERSION', content: `${version}\n` },
            { path: 'srv/finance-node/README.txt', content: note },
          ],
          config: {
            Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `APP_VERSION=${version}`],
            Cmd: ['/srv/finance-node/bin/finance-node'],
            WorkingDir: '/srv/finance-node',
            ExposedPorts: { '8000/tcp': {} },
            Labels: { 'org.opencontainers.image.title': 'finance-node backend', 'org.opencontainers.image.version': version },
          },
        }
      : {
          repoTag,
          created,
          files: [
            { path: 'usr/share/finance-node-web/index.html', content: `<!doctype html><title>Finance node ${version}</title><p>${note}</p>\n` },
            { path: 'usr/share/finance-node-web/VERSION', content: `${version}\n` },
          ],
          config: {
            Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
            Cmd: ['httpd', '-f', '-p', '80', '-h', '/usr/share/finance-node-web'],
            ExposedPorts: { '80/tcp': {} },
            Labels: { 'org.opencontainers.image.title': 'finance-node frontend', 'org.opencontainers.image.version': version },
          },
        },
  );
}

export class DemoCatalogue {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly licences: LicenceService,
    private readonly releases: ReleaseService,
    private readonly artifacts: ArtifactService,
    private readonly signing: SigningService,
    private readonly objects: ObjectStore,
    private readonly logger: Logger,
  ) {}

  /** Creates what is missing of the demo, and re-stores artifact bytes a fresh DATA_DIR lacks. */
  async ensure(): Promise<void> {
    const product =
      (await this.catalogue.productByCode(DEMO_PRODUCT)) ??
      (await this.catalogue.createProduct({ code: DEMO_PRODUCT, name: 'Finance Node', manifestTemplate: FINANCE_NODE_TEMPLATE }, ACTOR));
    const plans = await this.catalogue.plansOf([product.id]);
    if (!plans.some((p) => p.code === 'standard')) {
      await this.catalogue.createPlan({ product: product.id, code: 'standard', name: 'Standard', maxNodes: 3 }, ACTOR);
    }
    if (!plans.some((p) => p.code === 'enterprise')) {
      await this.catalogue.createPlan(
        { product: product.id, code: 'enterprise', name: 'Enterprise', maxNodes: 10, entitlements: ['enterprise-whitelabel'] },
        ACTOR,
      );
    }
    let organisation = (await this.catalogue.organisations()).find((o) => o.slug === DEMO_ORGANISATION);
    if (!organisation) {
      organisation = await this.catalogue.createOrganisation({ name: 'Demo Organisation', slug: DEMO_ORGANISATION }, ACTOR);
      await this.catalogue.addWorkspaceUser({ organisation: organisation.id, email: 'owner@demo.example', name: 'Demo Owner', role: 'owner' }, ACTOR);
    }
    if (!(await this.demoLicenceRow())) {
      await this.licences.create({ organisation: organisation.id, plan: `${DEMO_PRODUCT}/enterprise`, name: DEMO_LICENCE_NAME }, ACTOR);
    }
    for (const spec of RELEASES) await this.ensureRelease(spec);
  }

  private async ensureRelease(spec: DemoRelease): Promise<void> {
    const existing = (await this.releases.list({ product: DEMO_PRODUCT })).find((r) => r.version === spec.version);
    const release =
      existing ??
      (await this.releases.create(
        {
          product: DEMO_PRODUCT,
          version: spec.version,
          channel: spec.channel,
          changelog: spec.changelog,
          backdatedTo: spec.backdatedTo ? new Date(spec.backdatedTo) : null,
        },
        ACTOR,
      ));
    const created = new Date(spec.backdatedTo ?? '2025-11-01T09:00:00Z');
    const stored = await this.releases.artifactsOf([release.id]);
    for (const component of ['backend', 'frontend'] as const) {
      const image = demoImage(spec.version, component, created);
      const artifact = stored.find((a) => a.component === component && a.status === 'uploaded');
      if (!artifact) {
        await this.artifacts.upload({ release: release.id, component }, image.archive, { size: image.archive.length }, ACTOR);
      } else if (!(await this.objects.head(artifact.objectKey))) {
        const object = await this.objects.put(artifact.objectKey, image.archive, { contentType: artifact.mediaType });
        if (object.sha256 !== artifact.sha256) this.logger.warn({ artifact: artifact.id }, 'a re-stored demo artifact differs from the recorded one');
      }
    }
    if (release.status === 'draft') await this.releases.publish(release.id, ACTOR);
  }

  private async demoLicenceRow() {
    const organisation = (await this.catalogue.organisations()).find((o) => o.slug === DEMO_ORGANISATION);
    if (!organisation) return undefined;
    const rows = await this.licences.list({ organisationId: organisation.id, status: 'Active' });
    return rows.find((l) => l.name === DEMO_LICENCE_NAME);
  }

  /** The Active demo licence of finance-node: its key, a fresh signed licence token, the one-line public key. */
  async licence(): Promise<{ licenceKey: string; token: string; publicKey: string }> {
    const row = await this.demoLicenceRow();
    if (!row) throw new Error('There is no Active demo licence (the demo is seeded in development mode at start).');
    const checkout = await this.signing.checkout(row.id, ACTOR);
    return { licenceKey: this.licences.revealKey(row), token: checkout.token, publicKey: checkout.publicKey };
  }
}

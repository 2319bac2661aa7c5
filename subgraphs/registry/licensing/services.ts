import type { Config } from '../../../lib/config';
import { allowPasswordHashesAtOnce } from '../../../lib/passwords';
import { badInput } from '../../../lib/errors';
import { createMailer } from '../../../lib/mailer';
import { AttemptThrottle, LICENCE_KEY_ATTEMPTS, SIGN_IN_ATTEMPTS, TOKEN_ATTEMPTS } from '../../../lib/attempts';
import { objectStoreFor, type ObjectStore } from '../../../lib/object-store';
import { secretBoxFor } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { loadClientBuilders } from './client-builders';
import { ArtifactService } from './domain/artifacts';
import { BrandingService } from './domain/branding';
import { FrontendBuildService, type ClientBuilders, type ReleaseFrontend } from './domain/frontend-builds';
import { AuditLog } from './domain/audit';
import { CatalogueService } from './domain/catalogue';
import { DemoCatalogue } from './domain/demo';
import { DeploymentService } from './domain/deployments';
import { LicenceService } from './domain/licences';
import { MobileSigningKeys } from './domain/mobile-signing';
import { ReleaseService } from './domain/releases';
import { SigningService } from './domain/signing';
import { WorkspaceService } from './domain/workspace';
import { AuditStore } from './store/audit-store';
import { CatalogueStore } from './store/catalogue-store';
import { DeploymentStore } from './store/deployment-store';
import { LicenceStore } from './store/licence-store';
import { ReleaseStore } from './store/release-store';
import { SigningKeyStore } from './store/signing-key-store';
import { TokenStore } from './store/token-store';
import { WorkspaceStore } from './store/workspace-store';

export interface LicensingServices {
  catalogue: CatalogueService;
  licences: LicenceService;
  releases: ReleaseService;
  artifacts: ArtifactService;
  deployments: DeploymentService;
  signing: SigningService;
  audit: AuditLog;
  demo: DemoCatalogue;
  objects: ObjectStore;
  workspace: WorkspaceService;
  branding: BrandingService;
  builds: FrontendBuildService;
  /** The registry's public base URL when no request gives one (GraphQL clients): PUBLIC_URL_REGISTRY, else localhost. */
  baseUrl(given?: string | null): string;
  /** Scheduled upkeep: dead deployments culled, validity ends recorded, spent download tokens purged. */
  upkeep(): Promise<{ dead: number; expired: number; purgedTokens: number }>;
  /**
   * The Active demo licence of `finance-node` (development), a fresh checkout token and the one-line
   * public key: what the demo finance node is configured with.
   */
  demoLicence(): Promise<{ licenceKey: string; token: string; publicKey: string }>;
}

function baseUrlOf(config: Config) {
  return (given?: string | null): string => {
    const url = given?.trim() || config.PUBLIC_URL_REGISTRY || `http://localhost:${config.REGISTRY_PORT}`;
    if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url)) throw badInput(`baseUrl must be an http(s) URL, not ${url.slice(0, 100)}.`);
    return url.replace(/\/+$/, '');
  };
}

/** Sign-in failures allowed per e-mail address within 15 minutes before 429. */

export function createLicensingServices(
  { store, config, logger, jobs }: SubgraphDeps,
  clock: () => Date = () => new Date(),
  builders: () => ClientBuilders = loadClientBuilders,
): LicensingServices {
  // the workspace's and the identity's passwords share one bound per process (lib/passwords.ts)
  allowPasswordHashesAtOnce(config.PASSWORD_HASHES_AT_ONCE);
  const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
  const objects = objectStoreFor(config);
  const catalogueStore = new CatalogueStore(store);
  const licenceStore = new LicenceStore(store);
  const releaseStore = new ReleaseStore(store);
  const tokens = new TokenStore(store);
  const audit = new AuditLog(new AuditStore(store));
  const catalogue = new CatalogueService(catalogueStore, audit);
  const keyAttempts = new AttemptThrottle(
    store,
    'licence-key',
    LICENCE_KEY_ATTEMPTS,
    (s) => `Too many unknown licence keys from this address; try again in ${s} seconds.`,
  );
  const licences = new LicenceService(licenceStore, catalogueStore, audit, box, { rateLimitPerMinute: config.REGISTRY_RATE_LIMIT, keyAttempts }, clock);
  const signing = new SigningService(
    new SigningKeyStore(store),
    licenceStore,
    catalogueStore,
    audit,
    box,
    { configuredKey: config.LICENSING_SIGNING_KEY, ttlDays: config.LICENCE_TOKEN_TTL_DAYS },
    clock,
  );
  const workspaceStore = new WorkspaceStore(store);
  const branding = new BrandingService(workspaceStore, objects, audit, {
    allowPrivateAssetHosts: config.WORKSPACE_ASSET_FETCH_ALLOW_PRIVATE,
    fetchTimeoutMs: 10_000,
  });
  const builds: FrontendBuildService = new FrontendBuildService(
    workspaceStore,
    branding,
    catalogue,
    objects,
    audit,
    () => jobs,
    builders,
    new MobileSigningKeys(workspaceStore, box),
    // the latest release of each channel (releases is made below: it needs the builds)
    (): Promise<ReleaseFrontend[]> => releases.latestFrontends('finance-node'),
    { product: 'finance-node', clientUrl: config.FRONTEND_URL ?? 'http://localhost:8000/app/' },
    logger,
    clock,
  );
  const releases: ReleaseService = new ReleaseService(releaseStore, catalogue, licences, signing, audit, clock, builds);
  const baseUrl = baseUrlOf(config);
  const workspace = new WorkspaceService(
    workspaceStore,
    catalogue,
    licences,
    audit,
    createMailer(config, logger),
    new AttemptThrottle(store, 'workspace-sign-in', SIGN_IN_ATTEMPTS, () => 'Too many failed sign-ins for this address; try again later.'),
    {
      sessionTtlSeconds: config.WORKSPACE_SESSION_TTL_SECONDS,
      baseUrl: () => baseUrl(),
      linkAttempts: new AttemptThrottle(store, 'workspace-link', TOKEN_ATTEMPTS, () => 'Too many wrong links from this address; try again later.'),
    },
    clock,
  );
  const artifacts = new ArtifactService(
    releaseStore,
    releases,
    catalogue,
    licenceStore,
    licences,
    tokens,
    objects,
    audit,
    { tokenTtlSeconds: config.DOWNLOAD_TOKEN_TTL_SECONDS, linkTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS },
    clock,
  );
  const deployments = new DeploymentService(new DeploymentStore(store), licenceStore, audit, clock);
  const demo = new DemoCatalogue(catalogue, licences, releases, artifacts, signing, objects, logger);
  return {
    catalogue,
    licences,
    releases,
    artifacts,
    deployments,
    signing,
    audit,
    demo,
    objects,
    workspace,
    branding,
    builds,
    baseUrl,
    async upkeep() {
      const dead = await deployments.cull();
      const expired = await licences.expireDue('system');
      const purgedTokens = await tokens.purge(new Date(clock().getTime() - 86_400_000));
      return { dead, expired, purgedTokens };
    },
    demoLicence: () => demo.licence(),
  };
}

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isDevelopment, type Config } from '../../../../lib/config';
import { DomainError, badInput, forbidden, notFound } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/logger';
import { projectRoot } from '../../../../lib/paths';
import { objectStoreFor } from '../../../../lib/object-store';
import { maskSecret, purposeBox, type PurposeBox } from '../../../../lib/secret-box';
import type { NodeState } from '../../kernel/gate';
import { mayReadProvider } from '../../kernel/provider-credentials';
import { usableSecret, type NodeSecrets } from '../../kernel/secrets';
import type { BrandingLogo, BrandingValues, LicenceRow, NodeStore, ProviderCredentialRow } from '../store/node-store';
import { isLogoUploadKey, LOGO_MAX_BYTES, LOGO_PATH, logoTooLarge } from '../contract';
import { recogniseLogo } from './logo-bytes';
import { BRANDING_FIELDS } from '../store/node-store';
import { configurationChecks, storageChecks, type CheckMessage } from './checks';
import {
  builtInVendorKeys,
  evaluateLicence,
  NO_VENDOR_KEY_CHECK,
  PINNED_KEY_CHECK,
  trustsVendorKey,
  UNTRUSTED_KEY_CHECK,
  untrusted,
  vendorKeyFingerprint,
  type LicenceEvaluation,
} from './licence';
import { applySettingsChange, modulesOf, type SettingsRecord } from './settings';

/** The branding record as clients see it (NodeService.branding). */
export type Branding = BrandingValues & { updatedAt: Date; logo: BrandingLogo | null; legacy_logo_url: string };

export const improperlyConfigured = (message: string) => new DomainError('IMPROPERLY_CONFIGURED', 503, message);

/** Where the licence in force comes from: the one installed in the database, else the environment's pair. */
export interface EffectiveLicence {
  token?: string;
  publicKey?: string;
  source: string;
  installedAt?: Date;
  evaluation: LicenceEvaluation;
}

interface Snapshot {
  settings: SettingsRecord;
  licence: EffectiveLicence;
}

/** Where an installed licence came from (node.licence.source). */
export type LicenceSource = 'environment' | 'admin' | 'cli' | 'registry' | 'api';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const URLISH = /^(https?:\/\/\S+|data:image\/[a-z+.-]+;base64,[A-Za-z0-9+/=]+|\/\S*)?$/;
/** Raster images a data: URI may carry, by their magic bytes (SVG is refused: it can carry scripts, as the registry workspace refuses it). */
const RASTER_MAGIC: [string, number[]][] = [
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['webp', [0x52, 0x49, 0x46, 0x46]],
  ['x-icon', [0x00, 0x00, 0x01, 0x00]],
];
/** Whether a data: URI holds a raster image (PNG, JPEG, GIF, WebP, ICO): its declared type and its bytes. */
function rasterDataUri(value: string): boolean {
  const m = /^data:image\/([a-z+.-]+);base64,(.*)$/.exec(value);
  if (!m) return true;
  if (!['png', 'jpeg', 'jpg', 'gif', 'webp', 'x-icon', 'vnd.microsoft.icon'].includes(m[1])) return false;
  const bytes = Buffer.from(m[2].slice(0, 32), 'base64');
  return RASTER_MAGIC.some(([, magic]) => magic.every((b, i) => bytes[i] === b));
}

/**
 * The node's settings record, branding, licence and provider credentials. The settings and the
 * licence are read once and kept until a change evicts them (NOTIFY NODE_STATE_CHANGED in every
 * process; at once in the process that made the change).
 */
export class NodeService {
  private snapshot: Promise<Snapshot> | undefined;
  private generation = 0;
  /**
   * The vendor keys the node carries: built in (vendor-keys.pem at the application's root, written by the
   * image build from the registry that ships it), or given by the process that starts it (`npm start`:
   * the key of its own registry, shipVendorKey). None: production trusts the host's VENDOR_PUBLIC_KEY
   * only; development pins the first licence's key, with a warning (app.W013).
   */
  private readonly builtInKeys = builtInVendorKeys(readIfPresent(join(projectRoot(), 'vendor-keys.pem')));
  /** The environment's licence (VENDOR_PUBLIC_KEY) was refused at start: signed by a key the node does not trust. */
  private environmentRefused = false;
  private readonly box: PurposeBox | undefined;

  constructor(
    private readonly store: NodeStore,
    private readonly config: Config,
    readonly secrets: NodeSecrets,
    private readonly logger: Logger,
    private readonly onChange: () => void = () => undefined,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.box = usableSecret(secrets.frameworkSecretKey) ? purposeBox(secrets.frameworkSecretKey!, 'node.provider-credential') : undefined;
  }

  /** The settings or the licence changed (NOTIFY from any process, or a change here). */
  evict(): void {
    this.generation++;
    this.snapshot = undefined;
  }

  private current(): Promise<Snapshot> {
    if (this.snapshot) return this.snapshot;
    const generation = this.generation;
    const loading = (async () => ({ settings: await this.store.settings(), licence: await this.loadLicence() }))();
    this.snapshot = loading;
    loading.then(
      () => {
        if (generation !== this.generation && this.snapshot === loading) this.snapshot = undefined;
      },
      () => {
        if (this.snapshot === loading) this.snapshot = undefined;
      },
    );
    return loading;
  }

  private async loadLicence(): Promise<EffectiveLicence> {
    const installed = await this.store.licence();
    if (installed)
      return { ...installed, evaluation: await this.withTrust(installed.publicKey, await evaluateLicence(installed.token, installed.publicKey, this.clock())) };
    const token = this.config.VENDOR_LICENSE_TOKEN;
    const publicKey = this.config.VENDOR_PUBLIC_KEY;
    return { token, publicKey, source: 'environment', evaluation: await this.withTrust(publicKey, await evaluateLicence(token, publicKey, this.clock())) };
  }

  /**
   * A licence that verifies holds only when its key is trusted: one the node was
   * built with, else the pinned one. A node built without keys and with none pinned yet (a licence
   * installed before pinning existed) pins the key of the licence it has.
   */
  private async withTrust(publicKey: string | undefined | null, evaluation: LicenceEvaluation): Promise<LicenceEvaluation> {
    if (evaluation.status !== 'valid') return evaluation;
    const fingerprint = vendorKeyFingerprint(publicKey ?? '')!;
    const trusted = this.trustedKeys();
    const pinning = this.pinning();
    let pinned = pinning ? (await this.store.vendorKeyPin())?.fingerprint : undefined;
    if (pinning && !pinned) pinned = (await this.store.pinVendorKey(fingerprint, publicKey!.trim(), 'licence')).fingerprint;
    return trustsVendorKey(fingerprint, trusted, pinned, pinning) ? evaluation : untrusted(evaluation, trusted.size === 0 && !pinning);
  }

  /**
   * The keys this node trusts without learning them: those it carries; none carried, in production,
   * the host's VENDOR_PUBLIC_KEY (configured where the node runs, as a built-in key is, never learned
   * from a licence that arrives through the console, the CLI or the registry).
   */
  private trustedKeys(): ReadonlySet<string> {
    if (this.builtInKeys.size || isDevelopment(this.config)) return this.builtInKeys;
    const host = this.config.VENDOR_PUBLIC_KEY ? vendorKeyFingerprint(this.config.VENDOR_PUBLIC_KEY) : undefined;
    return new Set(host ? [host] : []);
  }

  /** First-use pinning: development only, and only while the node carries no key. */
  private pinning(): boolean {
    return this.builtInKeys.size === 0 && isDevelopment(this.config);
  }

  /**
   * The process that starts this node gives it the vendor's key (`npm start`: the key of the registry it
   * runs beside, which the demo node activates with). From then on only the keys it carries are trusted.
   */
  shipVendorKey(publicKey: string): void {
    const fingerprint = vendorKeyFingerprint(publicKey);
    if (!fingerprint) throw new Error('shipVendorKey: not a public key');
    this.builtInKeys.add(fingerprint);
    this.changed();
  }

  async settings(): Promise<SettingsRecord> {
    return (await this.current()).settings;
  }

  async licence(): Promise<EffectiveLicence> {
    return (await this.current()).licence;
  }

  /** The gate's view: read-only, maintenance, modules. */
  async nodeState(): Promise<NodeState> {
    const { settings, licence } = await this.current();
    const v = settings.values;
    const errors = licence.evaluation.checks.filter((c) => c.level === 'ERROR').map((c) => c.id);
    return {
      readOnly: licence.evaluation.status !== 'valid',
      licenceChecks: errors,
      licenceExpiresAt: licence.evaluation.expiresAt ?? null,
      maintenance: v.maintenance_mode === true,
      maintenanceMessage: String(v.maintenance_message),
      modules: modulesOf(v),
      enforce2fa: v.enforce_2fa === true,
      kycRequired: v.kyc_required === true,
      enhancedKycRequired: v.enhanced_kyc_required === true,
      brokerageProvider: String(v.brokerage_provider),
      fractionalShares: v.fractional_shares_enabled === true,
    };
  }

  /** Changes the settings record (admin console); effective at once here and, through NOTIFY, everywhere. */
  async updateSettings(change: Record<string, unknown>, actor: string): Promise<SettingsRecord> {
    const current = await this.store.settings();
    const next = applySettingsChange(current.values, change);
    const changed = Object.fromEntries(
      Object.keys(next)
        .filter((k) => next[k] !== current.values[k])
        .map((k) => [k, next[k]]),
    );
    await this.store.saveSettings(next, actor, changed);
    this.changed();
    return this.settings();
  }

  private changed(): void {
    this.evict();
    this.onChange();
  }

  /**
   * The branding as clients see it: `logo_url` is the uploaded logo's public path (with `?v=` its version),
   * else empty. A value saved before uploads existed (a data: URI or an https URL) is not shown: clients load
   * images from the node only (CSP), and the node does not fetch other sites; it stays in `legacy_logo_url`
   * for the console to say so, until a logo is uploaded or removed.
   */
  async branding(): Promise<Branding> {
    const row = await this.store.branding();
    const uploaded = row.logo ? row.logo_url : '';
    return { ...row, logo_url: uploaded, legacy_logo_url: row.logo ? '' : row.logo_url };
  }

  async updateBranding(change: Partial<Record<string, unknown>>, actor: string): Promise<Branding> {
    const current = await this.store.branding();
    const next = { ...current } as BrandingValues;
    const errors: Record<string, string[]> = {};
    for (const field of BRANDING_FIELDS) {
      const raw = change[field];
      if (raw === undefined || raw === null) continue;
      const value = typeof raw === 'string' ? raw.trim() : '';
      if (field === 'logo_url' && value && value !== current.logo_url)
        errors[field] = [
          'Upload the logo as a PNG, JPEG or WebP file (at most 512 KiB; SVG is refused: it can carry scripts); a URL or data: URI is not taken.',
        ];
      else if (field.startsWith('color_') && !COLOUR.test(value)) errors[field] = ['A colour as #RRGGBB.'];
      else if ((field.endsWith('_url') && !URLISH.test(value)) || value.length > 100_000) errors[field] = ['An http(s) URL, a path or a data:image URI.'];
      else if (field.endsWith('_url') && !rasterDataUri(value))
        errors[field] = ['A data:image URI holds a PNG, JPEG, GIF, WebP or ICO image (SVG is refused: it can carry scripts).'];
      else if (field === 'organisation_name' && (!value || value.length > 200)) errors[field] = ['1 to 200 characters.'];
      else if (field === 'support_email' && value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) errors[field] = ['An e-mail address.'];
      else if (!field.endsWith('_url') && value.length > 300) errors[field] = ['At most 300 characters.'];
      else next[field] = value;
    }
    if (Object.keys(errors).length) throw badInput('Invalid branding.', errors);
    await this.store.saveBranding(next, actor);
    return this.branding();
  }

  /**
   * Takes a logo the REST surface streamed to the object store (`uploadKey`, see LOGO_UPLOAD_PREFIX): checked
   * from the stored bytes — at most LOGO_MAX_BYTES, a PNG, JPEG or WebP by its first bytes (GIF, SVG and
   * anything else refused: 400) — copied to `branding/logo/<sha256>.<ext>` and named by the branding, with an
   * audit entry. The upload is removed either way; nothing changes when it is refused.
   */
  async uploadLogo(uploadKey: string, actor: string): Promise<Branding> {
    const objects = objectStoreFor(this.config);
    try {
      if (!isLogoUploadKey(uploadKey)) throw badInput('Not an upload of this node.', { upload: ['Unknown upload.'] });
      const staged = await objects.head(uploadKey);
      if (!staged) throw badInput('The upload is gone; send the file again.', { upload: ['Unknown upload.'] });
      if (staged.size === 0) throw badInput('The logo file is empty.', { file: ['Empty file.'] });
      if (staged.size > LOGO_MAX_BYTES) throw logoTooLarge();
      const bytes = Buffer.concat(await (await objects.get(uploadKey)).toArray());
      if (bytes.length > LOGO_MAX_BYTES) throw logoTooLarge();
      const { contentType, extension } = recogniseLogo(bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const objectKey = `branding/logo/${sha256}.${extension}`;
      await objects.put(objectKey, bytes, { contentType, size: bytes.length });
      const logo: Omit<BrandingLogo, 'uploadedAt'> = { objectKey, contentType, size: bytes.length, sha256 };
      await this.store.saveLogo(logo, `${LOGO_PATH}?v=${sha256.slice(0, 16)}`, actor);
      return this.branding();
    } finally {
      if (isLogoUploadKey(uploadKey)) await objects.delete(uploadKey).catch(() => undefined);
    }
  }

  /**
   * Installs a licence token and its public key (environment, admin console, `finance:install-licence`,
   * `finance:activate`, or `app.services.node.installLicence` in-process). Only a pair that verifies
   * is installed; it takes effect at once in every process (NOTIFY), without a restart.
   */
  async installLicence(token: string, publicKey: string, source: LicenceSource = 'api', actor: string = source): Promise<LicenceEvaluation> {
    const evaluation = await evaluateLicence(token?.trim(), publicKey?.trim(), this.clock());
    if (evaluation.status !== 'valid') {
      const errors = evaluation.checks.filter((c) => c.level === 'ERROR');
      throw new DomainError('LICENCE_INVALID', 400, `The licence was not installed: ${errors.map((c) => `${c.id} ${c.msg}`).join(' ')}`, {
        checks: errors.map((c) => c.id),
      });
    }
    const fingerprint = vendorKeyFingerprint(publicKey)!;
    const trusted = this.trustedKeys();
    const pinning = this.pinning();
    const installed = await this.store.installLicence(
      { token: token.trim(), publicKey: publicKey.trim(), fingerprint, source, actor },
      (pinned) => trustsVendorKey(fingerprint, trusted, pinned, pinning),
      pinning,
    );
    if (!installed) {
      const check = trusted.size === 0 && !pinning ? NO_VENDOR_KEY_CHECK : UNTRUSTED_KEY_CHECK;
      throw new DomainError('UNTRUSTED_VENDOR_KEY', 403, `The licence was not installed: ${check.msg}`, { checks: [check.id] });
    }
    if (pinning) this.logger.warn({ check: PINNED_KEY_CHECK.id }, PINNED_KEY_CHECK.msg);
    this.changed();
    this.logger.info({ source, licenceId: evaluation.claims?.licenceId, expiresAt: evaluation.expiresAt }, 'licence installed');
    return evaluation;
  }

  /** Start-up: a valid pair from the environment that is not installed yet is installed (source `environment`). */
  async installFromEnvironment(): Promise<void> {
    const { VENDOR_LICENSE_TOKEN: token, VENDOR_PUBLIC_KEY: key } = this.config;
    if (!token || !key) return;
    const installed = await this.store.licence();
    if (installed && installed.token === token.trim() && installed.publicKey === key.trim()) return;
    const evaluation = await evaluateLicence(token, key, this.clock());
    // an installed licence is not replaced by an environment pair that does not verify, nor by one signed by a key the node does not trust
    if (evaluation.status !== 'valid') return;
    try {
      await this.installLicence(token, key, 'environment', 'environment');
      this.environmentRefused = false;
    } catch (err) {
      if ((err as DomainError).code !== 'UNTRUSTED_VENDOR_KEY') throw err;
      this.environmentRefused = true;
      this.logger.error({ check: UNTRUSTED_KEY_CHECK.id }, 'VENDOR_PUBLIC_KEY is not a key this node trusts: the licence of the environment was not installed');
    }
  }

  /** Every system check: the configuration's (credentials the console holds included) and the licence's, without the silenced ids. */
  async checks(): Promise<CheckMessage[]> {
    return (await this.allChecks()).filter((c) => !this.config.SILENCED_SYSTEM_CHECKS.includes(c.id));
  }

  /** Every system check, the silenced ones too (`finance:check` counts them). */
  async allChecks(): Promise<CheckMessage[]> {
    const [licence, credentials, storage] = await Promise.all([this.licence(), this.store.providerCredentials(), objectStoreFor(this.config).writeProblem()]);
    const held = new Set(credentials.map((c) => `${c.provider}/${c.name}`));
    const refused = this.environmentRefused && !licence.evaluation.checks.some((c) => c.id === UNTRUSTED_KEY_CHECK.id);
    return [
      ...licence.evaluation.checks,
      ...(refused ? [{ ...UNTRUSTED_KEY_CHECK, msg: `VENDOR_PUBLIC_KEY: ${UNTRUSTED_KEY_CHECK.msg} The licence of the environment was not installed.` }] : []),
      ...(this.pinning() && licence.evaluation.status === 'valid' ? [PINNED_KEY_CHECK] : []),
      ...(!this.pinning() && this.trustedKeys().size === 0 && !licence.evaluation.checks.some((c) => c.id === NO_VENDOR_KEY_CHECK.id)
        ? [NO_VENDOR_KEY_CHECK]
        : []),
      ...configurationChecks(this.config, this.secrets, held),
      ...storageChecks(storage),
    ];
  }

  identity() {
    return { name: this.config.APP_NAME, version: this.config.APP_VERSION, hostname: hostname() };
  }

  private sealer(): PurposeBox {
    if (!this.box) throw improperlyConfigured('FRAMEWORK_SECRET_KEY is not set: provider credentials cannot be stored.');
    return this.box;
  }

  async providerCredentials(): Promise<Omit<ProviderCredentialRow, 'secretSealed'>[]> {
    return (await this.store.providerCredentials()).map(({ secretSealed: _sealed, ...rest }) => rest);
  }

  async saveProviderCredential(input: { provider: string; name: string; secret: string }, actor: string): Promise<Omit<ProviderCredentialRow, 'secretSealed'>> {
    const provider = input.provider?.trim().toLowerCase() ?? '';
    const name = input.name?.trim() ?? '';
    const secret = input.secret ?? '';
    const errors: Record<string, string[]> = {};
    if (!/^[a-z0-9][a-z0-9_.-]{0,99}$/.test(provider)) errors.provider = ['Lower-case letters, digits, ".", "_" or "-" (up to 100).'];
    if (!name || name.length > 100) errors.name = ['1 to 100 characters.'];
    if (!secret || secret.length > 10_000) errors.secret = ['1 to 10,000 characters.'];
    if (Object.keys(errors).length) throw badInput('Invalid provider credential.', errors);
    const row = await this.store.saveProviderCredential({ provider, name, secretSealed: this.sealer().seal(secret), secretHint: maskSecret(secret) }, actor);
    const { secretSealed: _sealed, ...shown } = row;
    return shown;
  }

  async deleteProviderCredential(id: string, actor: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(id) || !(await this.store.deleteProviderCredential(id, actor))) throw notFound('No such provider credential.');
  }

  /**
   * A stored credential's secret for a finance module's service principal: only a provider that
   * service owns (PROVIDER_READERS); anything else is refused, whether a record exists or not.
   */
  async providerSecretFor(service: string, provider: string, name: string): Promise<string | undefined> {
    if (!mayReadProvider(service, provider)) throw forbidden(`The ${service} service may not read the credentials of provider "${provider}".`);
    return this.providerSecret(provider, name);
  }

  /** A stored credential's secret, for the node's own use (never shown). */
  async providerSecret(provider: string, name: string): Promise<string | undefined> {
    const row = (await this.store.providerCredentials()).find((c) => c.provider === provider && c.name === name);
    return row ? this.sealer().open(row.secretSealed) : undefined;
  }

  recentActivity(limit = 20) {
    return this.store.recentActivity(limit);
  }

  audit(actor: string, action: string, detail: Record<string, unknown> = {}, outboxId?: string) {
    return this.store.audit(actor, action, detail, outboxId);
  }

  installedLicence(): Promise<LicenceRow | undefined> {
    return this.store.licence();
  }
}

const readIfPresent = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

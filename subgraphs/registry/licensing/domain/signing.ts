import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { notFound } from '../../../../lib/errors';
import { LICENCE_TOKEN_ALGORITHM, publicKeyLine, signLicenceToken, type LicenceClaims, type SignedLicence } from '../../../../lib/licence-token';
import type { SecretBox } from '../../../../lib/secret-box';
import type { CatalogueStore } from '../store/catalogue-store';
import type { LicenceStore } from '../store/licence-store';
import type { SigningKeyStore } from '../store/signing-key-store';
import type { AuditLog } from './audit';
import { assertUsable, effectiveStatus } from './licences';

/** The `iss` of every licence token this registry signs. */
export const LICENCE_TOKEN_ISSUER = 'matchday-licence-registry';

export interface PublicKeyInfo {
  algorithm: typeof LICENCE_TOKEN_ALGORITHM;
  /** RFC 7638 JWK thumbprint of the key (the tokens' `kid`). */
  keyId: string;
  /** Base64 of the SPKI DER, one line (lib/licence-token.ts `publicKeyLine`). */
  publicKey: string;
}

export interface Checkout extends SignedLicence, PublicKeyInfo {}

interface SigningKey {
  privateKey: KeyObject;
  info: PublicKeyInfo;
}

/** RFC 7638 thumbprint of an Ed25519 public key: SHA-256 of its canonical JWK, base64url. */
export function keyThumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
    .digest('base64url');
}

const sealContext = (keyId: string) => `licensing.signing_key:${keyId}`;

/**
 * The registry's Ed25519 licence signing key and the tokens it signs (lib/licence-token.ts, verified
 * offline by the product). The key comes from LICENSING_SIGNING_KEY, else it is generated on first
 * start and kept in the database sealed with the master key, shared by every replica.
 */
export class SigningService {
  private key?: Promise<SigningKey>;

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly licences: LicenceStore,
    private readonly catalogue: CatalogueStore,
    private readonly audit: AuditLog,
    private readonly box: SecretBox,
    private readonly settings: { configuredKey?: string; ttlDays: number },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Loads (or creates) the signing key once; a wrong master key fails here, at start. */
  ensureKey(): Promise<SigningKey> {
    this.key ??= this.load().catch((err: unknown) => {
      this.key = undefined;
      throw err;
    });
    return this.key;
  }

  private async load(): Promise<SigningKey> {
    if (this.settings.configuredKey) return fromPrivateKey(createPrivateKey(this.settings.configuredKey.replace(/\\n/g, '\n')));
    let row = await this.keys.active();
    if (!row) {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const id = keyThumbprint(publicKey);
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      await this.keys.insertFirst({
        id,
        publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        privateKeySealed: this.box.seal(pem, sealContext(id)),
      });
      row = (await this.keys.active())!;
    }
    return fromPrivateKey(createPrivateKey(this.box.open(row.privateKeySealed, sealContext(row.id))));
  }

  async publicKey(): Promise<PublicKeyInfo> {
    return (await this.ensureKey()).info;
  }

  /** An Ed25519 signature (base64) of `text` with the registry's key: what installers check manifests' artifact lists with. */
  async signDetached(text: string): Promise<{ algorithm: 'Ed25519'; keyId: string; signature: string }> {
    const key = await this.ensureKey();
    return { algorithm: 'Ed25519', keyId: key.info.keyId, signature: sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64') };
  }

  /**
   * A signed licence token for an Active licence: its id, organisation, product, plan, node cap,
   * maintenance end and entitlements; valid for LICENCE_TOKEN_TTL_DAYS, never beyond the licence.
   */
  async checkout(licenceId: string, actor: string, opts: { audit?: boolean } = {}): Promise<Checkout> {
    const licence = await this.licences.byId(licenceId);
    if (!licence) throw notFound('No such licence.');
    const now = this.clock();
    assertUsable(licence.status, licence.expiresAt, now);
    const [organisation, plan, product] = await Promise.all([
      this.catalogue.organisation(licence.organisationId),
      this.catalogue.plan(licence.planId),
      this.catalogue.product(licence.productId),
    ]);
    const claims: LicenceClaims = {
      licenceId: licence.id,
      organisationId: organisation!.id,
      organisationName: organisation!.name,
      product: product!.code,
      plan: plan!.code,
      maxNodes: plan!.maxNodes,
      maintenanceUntil: licence.maintenanceUntil,
      entitlements: plan!.entitlements,
      status: effectiveStatus(licence.status, licence.expiresAt, now),
    };
    const limit = now.getTime() + this.settings.ttlDays * 86_400_000;
    const until = licence.expiresAt ? Math.min(limit, licence.expiresAt.getTime()) : limit;
    const key = await this.ensureKey();
    const signed = await signLicenceToken(claims, {
      privateKey: key.privateKey,
      keyId: key.info.keyId,
      issuer: LICENCE_TOKEN_ISSUER,
      // exp (whole seconds) never after the licence's own end
      ttlSeconds: Math.max(60, Math.floor(until / 1000) - Math.floor(now.getTime() / 1000)),
      now,
    });
    if (opts.audit !== false) {
      await this.audit.record(undefined, {
        action: 'licence.checked_out',
        actor,
        organisationId: licence.organisationId,
        licenceId: licence.id,
        subjectType: 'licence',
        subjectId: licence.id,
        details: { keyId: key.info.keyId, expiresAt: signed.expiresAt.toISOString() },
      });
    }
    return { ...signed, ...key.info };
  }
}

function fromPrivateKey(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`The licence signing key must be Ed25519, not ${privateKey.asymmetricKeyType}.`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, info: { algorithm: LICENCE_TOKEN_ALGORITHM, keyId: keyThumbprint(publicKey), publicKey: publicKeyLine(publicKey) } };
}

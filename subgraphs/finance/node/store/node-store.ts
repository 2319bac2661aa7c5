import { randomUUID } from 'node:crypto';
import { inTransaction, type Store } from '../../../../lib/database';
import { PROVIDER_CREDENTIAL_CHANGED } from '../../kernel/provider-secrets';
import { NODE_STATE_CHANGED } from '../../kernel/gate';
import { TOGGLES, type SettingsRecord, type SettingsValues } from '../domain/settings';

export const BRANDING_FIELDS = [
  'organisation_name',
  'legal_entity',
  'logo_url',
  'favicon_url',
  'color_primary',
  'color_secondary',
  'color_accent',
  'support_email',
  'support_phone',
  'terms_url',
  'privacy_url',
] as const;
export type BrandingField = (typeof BRANDING_FIELDS)[number];
export type BrandingValues = Record<BrandingField, string>;

/** The uploaded logo, as stored: its object, type (from its bytes), size and SHA-256. */
export interface BrandingLogo {
  objectKey: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedAt: Date;
}

export interface ProviderCredentialRow {
  id: string;
  provider: string;
  name: string;
  secretSealed: string;
  secretHint: string;
  createdAt: Date;
  updatedAt: Date;
  updatedBy: string | null;
}

export interface VendorKeyPin {
  fingerprint: string;
  publicKey: string;
  source: string;
  pinnedAt: Date;
}

export interface LicenceRow {
  token: string;
  publicKey: string;
  source: string;
  installedAt: Date;
  installedBy: string | null;
}

export interface DeploymentRow {
  registryUrl: string;
  deploymentId: string | null;
  deploymentKey: string;
  /** The registry licence key the node activated with (null: registered elsewhere, VENDOR_API_KEY is used). */
  licenceKey: string | null;
  heartbeatIntervalSeconds: number;
  nextHeartbeatAt: Date | null;
  lastHeartbeatAt: Date | null;
  lastHeartbeatStatus: string | null;
  registeredAt: Date;
}

export interface AuditEntry {
  id: number;
  at: Date;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

const SETTINGS_COLUMNS = TOGGLES.map((t) => t.key);
const BRANDING_LOGO_COLUMNS = ['logo_object_key', 'logo_content_type', 'logo_size', 'logo_sha256', 'logo_uploaded_at'];

/**
 * SQL of the node schema. Every change of the settings or the licence NOTIFYs NODE_STATE_CHANGED in its
 * transaction; every change of a provider credential PROVIDER_CREDENTIAL_CHANGED (payload: the provider).
 */
export class NodeStore {
  constructor(private readonly store: Store) {}

  async settings(): Promise<SettingsRecord> {
    const { rows } = await this.store.pool.query({
      name: 'node.settings',
      text: `SELECT ${SETTINGS_COLUMNS.join(', ')}, updated_at, updated_by FROM node.settings WHERE id = 1`,
    });
    const row = rows[0] as Record<string, unknown>;
    return {
      values: Object.fromEntries(SETTINGS_COLUMNS.map((c) => [c, row[c] as boolean | string])),
      updatedAt: row.updated_at as Date,
      updatedBy: row.updated_by as string | null,
    };
  }

  async saveSettings(values: SettingsValues, actor: string, changed: Record<string, unknown>): Promise<void> {
    const sets = SETTINGS_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(', ');
    const n = SETTINGS_COLUMNS.length;
    await this.store.pool.query(
      `WITH s AS (UPDATE node.settings SET ${sets}, updated_at = now(), updated_by = $${n + 1} WHERE id = 1 RETURNING 1),
            a AS (INSERT INTO node.audit_log (actor, action, detail) VALUES ($${n + 1}, 'settings.changed', $${n + 2}::jsonb))
       SELECT pg_notify($${n + 3}, 'settings') FROM s`,
      [...SETTINGS_COLUMNS.map((c) => values[c]), actor, JSON.stringify(changed), NODE_STATE_CHANGED],
    );
  }

  async branding(): Promise<BrandingValues & { updatedAt: Date; logo: BrandingLogo | null }> {
    const { rows } = await this.store.pool.query(
      `SELECT ${BRANDING_FIELDS.join(', ')}, updated_at, logo_object_key, logo_content_type, logo_size, logo_sha256, logo_uploaded_at FROM node.branding WHERE id = 1`,
    );
    const row = rows[0] as Record<string, unknown>;
    const logo: BrandingLogo | null = row.logo_object_key
      ? {
          objectKey: row.logo_object_key as string,
          contentType: row.logo_content_type as string,
          size: row.logo_size as number,
          sha256: row.logo_sha256 as string,
          uploadedAt: row.logo_uploaded_at as Date,
        }
      : null;
    return { ...(Object.fromEntries(BRANDING_FIELDS.map((f) => [f, row[f]])) as BrandingValues), updatedAt: row.updated_at as Date, logo };
  }

  /** Saves the branding record; an emptied `logo_url` forgets the uploaded logo too (its object stays, named by its SHA-256). */
  async saveBranding(values: BrandingValues, actor: string): Promise<void> {
    const sets = BRANDING_FIELDS.map((f, i) => `${f} = $${i + 1}`).join(', ');
    const n = BRANDING_FIELDS.length;
    const clear = BRANDING_LOGO_COLUMNS.map((c) => `${c} = CASE WHEN $${n + 2}::text = '' THEN NULL ELSE ${c} END`).join(', ');
    await this.store.pool.query(
      `WITH b AS (UPDATE node.branding SET ${sets}, ${clear}, updated_at = now(), updated_by = $${n + 1} WHERE id = 1 RETURNING 1)
       INSERT INTO node.audit_log (actor, action, detail) SELECT $${n + 1}, 'branding.changed', '{}'::jsonb FROM b`,
      [...BRANDING_FIELDS.map((f) => values[f]), actor, values.logo_url],
    );
  }

  /** Points the branding at an uploaded logo (and its public path), with an audit entry, in one statement. */
  async saveLogo(logo: Omit<BrandingLogo, 'uploadedAt'>, logoUrl: string, actor: string): Promise<void> {
    await this.store.pool.query(
      `WITH b AS (UPDATE node.branding SET logo_url = $1, logo_object_key = $2, logo_content_type = $3, logo_size = $4, logo_sha256 = $5,
                         logo_uploaded_at = now(), updated_at = now(), updated_by = $6 WHERE id = 1 RETURNING 1)
       INSERT INTO node.audit_log (actor, action, detail) SELECT $6, 'branding.logo_uploaded', $7::jsonb FROM b`,
      [
        logoUrl,
        logo.objectKey,
        logo.contentType,
        logo.size,
        logo.sha256,
        actor,
        JSON.stringify({ content_type: logo.contentType, size: logo.size, sha256: logo.sha256 }),
      ],
    );
  }

  async providerCredentials(): Promise<ProviderCredentialRow[]> {
    const { rows } = await this.store.pool.query<ProviderCredentialRow>(
      `SELECT id, provider, name, secret_sealed AS "secretSealed", secret_hint AS "secretHint", created_at AS "createdAt",
              updated_at AS "updatedAt", updated_by AS "updatedBy"
         FROM node.provider_credential ORDER BY provider, name`,
    );
    return rows;
  }

  async saveProviderCredential(c: { provider: string; name: string; secretSealed: string; secretHint: string }, actor: string): Promise<ProviderCredentialRow> {
    const { rows } = await this.store.pool.query<ProviderCredentialRow>(
      `WITH c AS (
         INSERT INTO node.provider_credential (provider, name, secret_sealed, secret_hint, updated_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (provider, name) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, secret_hint = EXCLUDED.secret_hint,
                                                   updated_at = now(), updated_by = EXCLUDED.updated_by
         RETURNING *),
       a AS (INSERT INTO node.audit_log (actor, action, detail) VALUES ($5, 'provider_credential.saved', jsonb_build_object('provider', $1::text, 'name', $2::text))),
       n AS (SELECT pg_notify($6, $1::text))
       SELECT id, provider, name, secret_sealed AS "secretSealed", secret_hint AS "secretHint", created_at AS "createdAt",
              updated_at AS "updatedAt", updated_by AS "updatedBy" FROM c CROSS JOIN n`,
      [c.provider, c.name, c.secretSealed, c.secretHint, actor, PROVIDER_CREDENTIAL_CHANGED],
    );
    return rows[0];
  }

  async deleteProviderCredential(id: string, actor: string): Promise<boolean> {
    const { rows } = await this.store.pool.query(
      `WITH d AS (DELETE FROM node.provider_credential WHERE id = $1 RETURNING provider, name),
            a AS (INSERT INTO node.audit_log (actor, action, detail) SELECT $2, 'provider_credential.deleted', jsonb_build_object('provider', provider, 'name', name) FROM d)
       SELECT pg_notify($3, provider) FROM d`,
      [id, actor, PROVIDER_CREDENTIAL_CHANGED],
    );
    return rows.length > 0;
  }

  async licence(): Promise<LicenceRow | undefined> {
    const { rows } = await this.store.pool.query<LicenceRow>(
      `SELECT token, public_key AS "publicKey", source, installed_at AS "installedAt", installed_by AS "installedBy" FROM node.licence WHERE id = 1`,
    );
    return rows[0];
  }

  /** The vendor key the node is pinned to (the first licence's), if any. */
  async vendorKeyPin(): Promise<VendorKeyPin | undefined> {
    const { rows } = await this.store.pool.query<VendorKeyPin>(
      `SELECT fingerprint, public_key AS "publicKey", source, pinned_at AS "pinnedAt" FROM node.vendor_key WHERE id = 1`,
    );
    return rows[0];
  }

  /** Pins a vendor key when none is pinned yet; the pin afterwards (this one, or the one that was there). */
  async pinVendorKey(fingerprint: string, publicKey: string, source: string): Promise<VendorKeyPin> {
    await this.store.pool.query(`INSERT INTO node.vendor_key (id, fingerprint, public_key, source) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
      fingerprint,
      publicKey,
      source,
    ]);
    return (await this.vendorKeyPin())!;
  }

  /**
   * Installs a licence whose key `trusted` accepts, given the pin as it stands inside the transaction
   * (one installation at a time: two first installations with different keys cannot both pin): pins
   * the key when `pin` is true and none is pinned. False, and nothing changed, when the key is not trusted.
   */
  async installLicence(
    licence: { token: string; publicKey: string; fingerprint: string; source: string; actor: string },
    trusted: (pinned: string | undefined) => boolean,
    pin: boolean,
  ): Promise<boolean> {
    return inTransaction(this.store.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('node.vendor_key'))`);
      const { rows } = await client.query<{ fingerprint: string }>('SELECT fingerprint FROM node.vendor_key WHERE id = 1');
      if (!trusted(rows[0]?.fingerprint)) return false;
      if (pin && !rows[0]) {
        await client.query(`INSERT INTO node.vendor_key (id, fingerprint, public_key, source) VALUES (1, $1, $2, $3)`, [
          licence.fingerprint,
          licence.publicKey,
          licence.source,
        ]);
      }
      await client.query(
        `WITH l AS (
           INSERT INTO node.licence (id, token, public_key, source, installed_by) VALUES (1, $1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token, public_key = EXCLUDED.public_key, source = EXCLUDED.source,
                                         installed_at = now(), installed_by = EXCLUDED.installed_by
           RETURNING 1),
         a AS (INSERT INTO node.audit_log (actor, action, detail) VALUES ($4, 'licence.installed', jsonb_build_object('source', $3::text)))
         SELECT pg_notify($5, 'licence') FROM l`,
        [licence.token, licence.publicKey, licence.source, licence.actor, NODE_STATE_CHANGED],
      );
      return true;
    });
  }

  async deployment(): Promise<DeploymentRow | undefined> {
    const { rows } = await this.store.pool.query<DeploymentRow>(
      `SELECT registry_url AS "registryUrl", deployment_id AS "deploymentId", deployment_key AS "deploymentKey", licence_key AS "licenceKey",
              heartbeat_interval_seconds AS "heartbeatIntervalSeconds", next_heartbeat_at AS "nextHeartbeatAt",
              last_heartbeat_at AS "lastHeartbeatAt", last_heartbeat_status AS "lastHeartbeatStatus", registered_at AS "registeredAt"
         FROM node.deployment WHERE id = 1`,
    );
    return rows[0];
  }

  async saveDeployment(d: Omit<DeploymentRow, 'lastHeartbeatAt' | 'lastHeartbeatStatus' | 'registeredAt'>, actor: string): Promise<void> {
    await this.store.pool.query(
      `WITH d AS (
         INSERT INTO node.deployment (id, registry_url, deployment_id, deployment_key, heartbeat_interval_seconds, next_heartbeat_at, licence_key)
         VALUES (1, $1, $2, $3, $4, $5, $7)
         ON CONFLICT (id) DO UPDATE SET registry_url = EXCLUDED.registry_url, deployment_id = EXCLUDED.deployment_id,
           deployment_key = EXCLUDED.deployment_key, licence_key = EXCLUDED.licence_key, heartbeat_interval_seconds = EXCLUDED.heartbeat_interval_seconds,
           next_heartbeat_at = EXCLUDED.next_heartbeat_at, registered_at = now()
         RETURNING 1)
       INSERT INTO node.audit_log (actor, action, detail) SELECT $6, 'deployment.registered', jsonb_build_object('registry', $1::text) FROM d`,
      [d.registryUrl, d.deploymentId, d.deploymentKey, d.heartbeatIntervalSeconds, d.nextHeartbeatAt, actor, d.licenceKey],
    );
  }

  /** This node's own id (its seat at the registry), made once, at its first use. */
  async instanceId(): Promise<string> {
    await this.store.pool.query('INSERT INTO node.instance (id, instance_id) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [randomUUID()]);
    const { rows } = await this.store.pool.query<{ instanceId: string }>('SELECT instance_id AS "instanceId" FROM node.instance WHERE id = 1');
    return rows[0].instanceId;
  }

  async recordHeartbeat(status: string, intervalSeconds: number | undefined, nextAt: Date | undefined): Promise<void> {
    await this.store.pool.query(
      `UPDATE node.deployment SET last_heartbeat_at = now(), last_heartbeat_status = $1,
              heartbeat_interval_seconds = COALESCE($2, heartbeat_interval_seconds), next_heartbeat_at = COALESCE($3, next_heartbeat_at)
        WHERE id = 1`,
      [status, intervalSeconds ?? null, nextAt ?? null],
    );
  }

  async recentActivity(limit: number): Promise<AuditEntry[]> {
    const { rows } = await this.store.pool.query<AuditEntry>('SELECT id, at, actor, action, detail FROM node.audit_log ORDER BY at DESC, id DESC LIMIT $1', [
      limit,
    ]);
    return rows;
  }

  /** Records an entry; one with an outbox id (a finance subgraph's audit outbox) is recorded once, however often it is sent. */
  async audit(actor: string, action: string, detail: Record<string, unknown> = {}, outboxId?: string): Promise<void> {
    await this.store.pool.query(
      'INSERT INTO node.audit_log (actor, action, detail, outbox_id) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (outbox_id) DO NOTHING',
      [actor, action, JSON.stringify(detail), outboxId ?? null],
    );
  }
}

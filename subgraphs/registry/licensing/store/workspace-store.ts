import type { Store } from '../../../../lib/database';

export interface WorkspaceAccount {
  id: string;
  organisationId: string;
  email: string;
  name: string;
  role: 'owner' | 'member';
  passwordHash: string | null;
}

/** A stored image (logo, favicon): where the object store keeps it, and what it is. */
export interface StoredAsset {
  key: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface BrandingRow {
  organisationId: string;
  version: number;
  displayName: string;
  primaryColor: string;
  accentColor: string;
  logoUrl: string | null;
  logo: StoredAsset | null;
  faviconUrl: string | null;
  favicon: StoredAsset | null;
  /** The finance node's public https address: where the mobile apps open the client. */
  publicUrl: string | null;
  createdAt: Date;
  createdBy: string;
}

/** An organisation's Android signing key, sealed (the secret box opens it for a build). */
export interface SealedSigningKey {
  keystoreSealed: string;
  passwordSealed: string;
  alias: string;
}

/** A built package: the object and its checksum (the frontend also its image). */
export interface BuiltPackage extends StoredAsset {
  filename: string;
  image?: string;
  imageId?: string;
  kind?: string;
}

/** A branded frontend image for one release version, with the id its download link names. */
export interface FrontendImage extends BuiltPackage {
  id: string;
  version: string;
}

export type BuildStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface BuildRow {
  id: string;
  organisationId: string;
  brandingVersion: number;
  status: BuildStatus;
  progress: number;
  log: string[];
  error: string | null;
  frontend: BuiltPackage | null;
  android: BuiltPackage | null;
  ios: BuiltPackage | null;
  /** One runnable frontend image per release version (`frontend` is the newest version's). */
  frontendImages: FrontendImage[];
  requestedBy: string;
  createdAt: Date;
  finishedAt: Date | null;
}

const ACCOUNT = `id, organisation_id AS "organisationId", email, name, role, password_hash AS "passwordHash"`;
const BRANDING = `organisation_id AS "organisationId", version, display_name AS "displayName", primary_color AS "primaryColor",
  accent_color AS "accentColor", logo_url AS "logoUrl", logo, favicon_url AS "faviconUrl", favicon, public_url AS "publicUrl", created_at AS "createdAt", created_by AS "createdBy"`;
const BUILD = `id, organisation_id AS "organisationId", branding_version AS "brandingVersion", status, progress, log, error, frontend, android, ios,
  frontend_images AS "frontendImages", requested_by AS "requestedBy", created_at AS "createdAt", finished_at AS "finishedAt"`;

/** SQL of the customer workspace: accounts and sessions, entitlements, branding versions and frontend builds. */
export class WorkspaceStore {
  constructor(private readonly store: Store) {}

  async accountByEmail(email: string): Promise<WorkspaceAccount | undefined> {
    const { rows } = await this.store.pool.query<WorkspaceAccount>(`SELECT ${ACCOUNT} FROM licensing.workspace_user WHERE email = $1`, [email]);
    return rows[0];
  }

  async account(id: string): Promise<WorkspaceAccount | undefined> {
    const { rows } = await this.store.pool.query<WorkspaceAccount>(`SELECT ${ACCOUNT} FROM licensing.workspace_user WHERE id = $1`, [id]);
    return rows[0];
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.store.pool.query('UPDATE licensing.workspace_user SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
    // a new password ends every session of the user
    await this.store.pool.query('DELETE FROM licensing.workspace_session WHERE user_id = $1', [userId]);
  }

  async insertSession(row: { tokenHash: Buffer; userId: string; expiresAt: Date }): Promise<void> {
    await this.store.pool.query('INSERT INTO licensing.workspace_session (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
      row.tokenHash,
      row.userId,
      row.expiresAt,
    ]);
  }

  async sessionAccount(tokenHash: Buffer, now: Date): Promise<WorkspaceAccount | undefined> {
    const { rows } = await this.store.pool.query<WorkspaceAccount>(
      `SELECT u.id, u.organisation_id AS "organisationId", u.email, u.name, u.role, u.password_hash AS "passwordHash"
         FROM licensing.workspace_session s JOIN licensing.workspace_user u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [tokenHash, now],
    );
    return rows[0];
  }

  async deleteSession(tokenHash: Buffer): Promise<void> {
    await this.store.pool.query('DELETE FROM licensing.workspace_session WHERE token_hash = $1', [tokenHash]);
  }

  async insertPasswordToken(row: { tokenHash: Buffer; userId: string; purpose: 'invitation' | 'reset'; expiresAt: Date }): Promise<void> {
    await this.store.pool.query('INSERT INTO licensing.workspace_password_token (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)', [
      row.tokenHash,
      row.userId,
      row.purpose,
      row.expiresAt,
    ]);
  }

  /** Uses a password token, atomically: of concurrent uses one gets its user id. */
  async consumePasswordToken(tokenHash: Buffer, now: Date): Promise<string | undefined> {
    const { rows } = await this.store.pool.query<{ userId: string }>(
      `UPDATE licensing.workspace_password_token SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id AS "userId"`,
      [tokenHash, now],
    );
    return rows[0]?.userId;
  }

  /** What the organisation holds: the vendor's grants, and the entitlements of the plans of its Active licences. */
  async entitlements(organisationId: string): Promise<string[]> {
    const { rows } = await this.store.pool.query<{ entitlement: string }>(
      `SELECT entitlement FROM licensing.organisation_entitlement WHERE organisation_id = $1
        UNION
       SELECT unnest(pl.entitlements) FROM licensing.licence l JOIN licensing.plan pl ON pl.id = l.plan_id
        WHERE l.organisation_id = $1 AND l.status = 'Active' AND (l.expires_at IS NULL OR l.expires_at > now())
        ORDER BY 1`,
      [organisationId],
    );
    return rows.map((r) => r.entitlement);
  }

  async grant(organisationId: string, entitlement: string, actor: string): Promise<void> {
    await this.store.pool.query(
      'INSERT INTO licensing.organisation_entitlement (organisation_id, entitlement, granted_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [organisationId, entitlement, actor],
    );
  }

  async revoke(organisationId: string, entitlement: string): Promise<void> {
    await this.store.pool.query('DELETE FROM licensing.organisation_entitlement WHERE organisation_id = $1 AND entitlement = $2', [
      organisationId,
      entitlement,
    ]);
  }

  /** Saves a new branding version (the next number, computed under the insert's own conflict check). */
  async insertBranding(row: Omit<BrandingRow, 'version' | 'createdAt'>): Promise<BrandingRow> {
    const { rows } = await this.store.pool.query<BrandingRow>(
      `INSERT INTO licensing.branding (organisation_id, version, display_name, primary_color, accent_color, logo_url, logo, favicon_url, favicon, created_by, public_url)
       SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM licensing.branding WHERE organisation_id = $1
       RETURNING ${BRANDING}`,
      [
        row.organisationId,
        row.displayName,
        row.primaryColor,
        row.accentColor,
        row.logoUrl,
        row.logo,
        row.faviconUrl,
        row.favicon,
        row.createdBy,
        row.publicUrl,
      ],
    );
    return rows[0];
  }

  async branding(organisationId: string, version?: number): Promise<BrandingRow | undefined> {
    const { rows } = await this.store.pool.query<BrandingRow>(
      `SELECT ${BRANDING} FROM licensing.branding WHERE organisation_id = $1 AND ($2::int IS NULL OR version = $2) ORDER BY version DESC LIMIT 1`,
      [organisationId, version ?? null],
    );
    return rows[0];
  }

  /** The organisation's Android signing key: the stored one, or `made` stored now if it has none (the first of concurrent makers wins). */
  async signingKey(organisationId: string, made: () => Promise<SealedSigningKey>): Promise<SealedSigningKey> {
    const select = `SELECT keystore_sealed AS "keystoreSealed", password_sealed AS "passwordSealed", alias FROM licensing.mobile_signing_key WHERE organisation_id = $1`;
    const existing = await this.store.pool.query<SealedSigningKey>(select, [organisationId]);
    if (existing.rows[0]) return existing.rows[0];
    const key = await made();
    await this.store.pool.query(
      `INSERT INTO licensing.mobile_signing_key (organisation_id, keystore_sealed, password_sealed, alias) VALUES ($1, $2, $3, $4) ON CONFLICT (organisation_id) DO NOTHING`,
      [organisationId, key.keystoreSealed, key.passwordSealed, key.alias],
    );
    return (await this.store.pool.query<SealedSigningKey>(select, [organisationId])).rows[0];
  }

  /** The next Android versionCode of the organisation (atomic: every build gets a larger one). */
  async nextVersionCode(organisationId: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ versionCode: number }>(
      `UPDATE licensing.mobile_signing_key SET version_code = version_code + 1 WHERE organisation_id = $1 RETURNING version_code AS "versionCode"`,
      [organisationId],
    );
    if (!rows[0]) throw new Error('The organisation has no signing key yet.');
    return rows[0].versionCode;
  }

  async setBrandingAsset(organisationId: string, version: number, kind: 'logo' | 'favicon', asset: StoredAsset): Promise<void> {
    await this.store.pool.query(`UPDATE licensing.branding SET ${kind} = $3 WHERE organisation_id = $1 AND version = $2`, [organisationId, version, asset]);
  }

  async brandingVersions(organisationId: string): Promise<BrandingRow[]> {
    const { rows } = await this.store.pool.query<BrandingRow>(`SELECT ${BRANDING} FROM licensing.branding WHERE organisation_id = $1 ORDER BY version DESC`, [
      organisationId,
    ]);
    return rows;
  }

  async insertBuild(row: { organisationId: string; brandingVersion: number; requestedBy: string }): Promise<BuildRow> {
    const { rows } = await this.store.pool.query<BuildRow>(
      `INSERT INTO licensing.frontend_build (organisation_id, branding_version, requested_by) VALUES ($1, $2, $3) RETURNING ${BUILD}`,
      [row.organisationId, row.brandingVersion, row.requestedBy],
    );
    return rows[0];
  }

  async build(id: string): Promise<BuildRow | undefined> {
    const { rows } = await this.store.pool.query<BuildRow>(`SELECT ${BUILD} FROM licensing.frontend_build WHERE id = $1`, [id]);
    return rows[0];
  }

  async builds(filter: { organisationId?: string | null; status?: BuildStatus | null; limit: number }): Promise<BuildRow[]> {
    const { rows } = await this.store.pool.query<BuildRow>(
      `SELECT ${BUILD} FROM licensing.frontend_build WHERE ($1::uuid IS NULL OR organisation_id = $1) AND ($2::text IS NULL OR status = $2)
        ORDER BY created_at DESC LIMIT $3`,
      [filter.organisationId ?? null, filter.status ?? null, filter.limit],
    );
    return rows;
  }

  /** The organisation's newest succeeded build: its frontend replaces the generic one in manifests. */
  async latestSucceeded(organisationId: string): Promise<BuildRow | undefined> {
    const [row] = await this.builds({ organisationId, status: 'succeeded', limit: 1 });
    return row;
  }

  /** Progress and one log line; a queued build becomes running. */
  async progress(id: string, progress: number, line: string): Promise<void> {
    await this.store.pool.query(
      `UPDATE licensing.frontend_build SET progress = GREATEST(progress, $2), log = array_append(log, $3),
              status = CASE WHEN status = 'queued' THEN 'running' ELSE status END
        WHERE id = $1`,
      [id, progress, line],
    );
  }

  /** The build holding the frontend image of that id. */
  async buildOfImage(imageId: string): Promise<BuildRow | undefined> {
    const { rows } = await this.store.pool.query<BuildRow>(`SELECT ${BUILD} FROM licensing.frontend_build WHERE frontend_images @> $1::jsonb`, [
      JSON.stringify([{ id: imageId }]),
    ]);
    return rows[0];
  }

  async finish(
    id: string,
    outcome: { frontend: BuiltPackage; frontendImages: FrontendImage[]; android: BuiltPackage; ios: BuiltPackage } | { error: string },
    now: Date,
  ): Promise<void> {
    if ('error' in outcome) {
      await this.store.pool.query(
        `UPDATE licensing.frontend_build SET status = 'failed', error = $2, log = array_append(log, 'failed: ' || $2), finished_at = $3 WHERE id = $1`,
        [id, outcome.error, now],
      );
    } else {
      await this.store.pool.query(
        `UPDATE licensing.frontend_build SET status = 'succeeded', progress = 100, frontend = $2, android = $3, ios = $4,
                log = array_append(log, 'done'), finished_at = $5, frontend_images = $6 WHERE id = $1`,
        [id, outcome.frontend, outcome.android, outcome.ios, now, JSON.stringify(outcome.frontendImages)],
      );
    }
  }
}

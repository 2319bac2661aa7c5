import type pg from 'pg';
import type { Store } from '../../../../lib/database';
import type { Channel } from '../versions';
import type { Queryable } from './licence-store';

export type ReleaseStatus = 'draft' | 'published' | 'yanked';
export type ArtifactStatus = 'waiting' | 'uploaded';

export interface ReleaseRow {
  id: string;
  productId: string;
  version: string;
  channel: Channel;
  status: ReleaseStatus;
  changelog: string;
  manifestTemplate: unknown;
  publishedAt: Date | null;
  backdatedTo: Date | null;
  yankedAt: Date | null;
  createdAt: Date;
}

/** A published release as update checks and listings read it. */
export interface VisibleRelease {
  id: string;
  version: string;
  channel: Channel;
  changelog: string;
  publishedAt: Date;
  backdatedTo: Date | null;
}

export interface ArtifactRow {
  id: string;
  releaseId: string;
  component: string;
  filename: string;
  objectKey: string;
  mediaType: string;
  status: ArtifactStatus;
  size: number | null;
  sha256: string | null;
  image: string | null;
  imageId: string | null;
  createdAt: Date;
  uploadedAt: Date | null;
}

const RELEASE_COLUMNS = `r.id, r.product_id AS "productId", r.version, r.channel, r.status, r.changelog, r.manifest_template AS "manifestTemplate",
  r.published_at AS "publishedAt", r.backdated_to AS "backdatedTo", r.yanked_at AS "yankedAt", r.created_at AS "createdAt"`;

const ARTIFACT_COLUMNS = `a.id, a.release_id AS "releaseId", a.component, a.filename, a.object_key AS "objectKey", a.media_type AS "mediaType",
  a.status, a.size, a.sha256, a.image, a.image_id AS "imageId", a.created_at AS "createdAt", a.uploaded_at AS "uploadedAt"`;

/** SQL of releases and their artifacts. */
export class ReleaseStore {
  constructor(private readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  /** The published releases of a product in some channels: the hot path of update checks (one indexed read). */
  async visible(productId: string, channels: readonly Channel[]): Promise<VisibleRelease[]> {
    const { rows } = await this.store.pool.query<VisibleRelease>({
      name: 'licensing.visible_releases',
      text: `SELECT id, version, channel, changelog, published_at AS "publishedAt", backdated_to AS "backdatedTo"
               FROM licensing.release WHERE product_id = $1 AND status = 'published' AND channel = ANY($2::text[])`,
      values: [productId, channels],
    });
    return rows;
  }

  async insert(row: Pick<ReleaseRow, 'productId' | 'version' | 'channel' | 'changelog' | 'manifestTemplate' | 'backdatedTo'>): Promise<ReleaseRow> {
    const { rows } = await this.store.pool.query<ReleaseRow>(
      `INSERT INTO licensing.release AS r (product_id, version, channel, changelog, manifest_template, backdated_to)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${RELEASE_COLUMNS}`,
      [row.productId, row.version, row.channel, row.changelog, JSON.stringify(row.manifestTemplate), row.backdatedTo],
    );
    return rows[0];
  }

  async byId(id: string, db: Queryable = this.store.pool): Promise<ReleaseRow | undefined> {
    const { rows } = await db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM licensing.release r WHERE r.id = $1`, [id]);
    return rows[0];
  }

  async byIds(ids: readonly string[]): Promise<ReleaseRow[]> {
    const { rows } = await this.store.pool.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM licensing.release r WHERE r.id = ANY($1::uuid[])`, [ids]);
    return rows;
  }

  async byVersion(productId: string, version: string): Promise<ReleaseRow | undefined> {
    const { rows } = await this.store.pool.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM licensing.release r WHERE r.product_id = $1 AND r.version = $2`, [
      productId,
      version,
    ]);
    return rows[0];
  }

  async list(filter: { productId?: string | null; channels?: readonly Channel[] | null; statuses: readonly ReleaseStatus[] }): Promise<ReleaseRow[]> {
    const { rows } = await this.store.pool.query<ReleaseRow>(
      `SELECT ${RELEASE_COLUMNS} FROM licensing.release r
        WHERE ($1::uuid IS NULL OR r.product_id = $1) AND ($2::text[] IS NULL OR r.channel = ANY($2)) AND r.status = ANY($3::text[])`,
      [filter.productId ?? null, filter.channels ?? null, filter.statuses],
    );
    return rows;
  }

  async publish(tx: Queryable, id: string, at: Date): Promise<ReleaseRow | undefined> {
    const { rows } = await tx.query<ReleaseRow>(
      `UPDATE licensing.release r SET status = 'published', published_at = $2 WHERE r.id = $1 AND r.status = 'draft' RETURNING ${RELEASE_COLUMNS}`,
      [id, at],
    );
    return rows[0];
  }

  async yank(tx: Queryable, id: string, at: Date): Promise<ReleaseRow | undefined> {
    const { rows } = await tx.query<ReleaseRow>(
      `UPDATE licensing.release r SET status = 'yanked', yanked_at = $2 WHERE r.id = $1 AND r.status = 'published' RETURNING ${RELEASE_COLUMNS}`,
      [id, at],
    );
    return rows[0];
  }

  async lock(tx: Queryable, id: string): Promise<ReleaseRow | undefined> {
    const { rows } = await tx.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM licensing.release r WHERE r.id = $1 FOR UPDATE`, [id]);
    return rows[0];
  }

  async insertArtifact(row: Pick<ArtifactRow, 'id' | 'releaseId' | 'component' | 'filename' | 'objectKey' | 'mediaType'>): Promise<ArtifactRow> {
    const { rows } = await this.store.pool.query<ArtifactRow>(
      `INSERT INTO licensing.artifact AS a (id, release_id, component, filename, object_key, media_type)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ARTIFACT_COLUMNS}`,
      [row.id, row.releaseId, row.component, row.filename, row.objectKey, row.mediaType],
    );
    return rows[0];
  }

  async artifact(id: string): Promise<ArtifactRow | undefined> {
    const { rows } = await this.store.pool.query<ArtifactRow>(`SELECT ${ARTIFACT_COLUMNS} FROM licensing.artifact a WHERE a.id = $1`, [id]);
    return rows[0];
  }

  async artifactsOf(releaseIds: readonly string[], client?: pg.PoolClient): Promise<ArtifactRow[]> {
    const { rows } = await (client ?? this.store.pool).query<ArtifactRow>(
      `SELECT ${ARTIFACT_COLUMNS} FROM licensing.artifact a WHERE a.release_id = ANY($1::uuid[]) ORDER BY a.component`,
      [releaseIds],
    );
    return rows;
  }

  async markUploaded(id: string, upload: { size: number; sha256: string; image: string | null; imageId: string | null }, at: Date): Promise<ArtifactRow> {
    const { rows } = await this.store.pool.query<ArtifactRow>(
      `UPDATE licensing.artifact a SET status = 'uploaded', size = $2, sha256 = $3, image = $4, image_id = $5, uploaded_at = $6
        WHERE a.id = $1 RETURNING ${ARTIFACT_COLUMNS}`,
      [id, upload.size, upload.sha256, upload.image, upload.imageId, at],
    );
    return rows[0];
  }

  async deleteArtifact(id: string): Promise<void> {
    await this.store.pool.query('DELETE FROM licensing.artifact WHERE id = $1', [id]);
  }
}

import type { Store } from '../../../../lib/database';

export interface SigningKeyRow {
  id: string;
  publicKey: string;
  privateKeySealed: string;
  createdAt: Date;
}

/** The registry's licence signing keys: one active (the private key sealed with the master key). */
export class SigningKeyStore {
  constructor(private readonly store: Store) {}

  async active(): Promise<SigningKeyRow | undefined> {
    const { rows } = await this.store.pool.query<SigningKeyRow>(
      `SELECT id, public_key AS "publicKey", private_key_sealed AS "privateKeySealed", created_at AS "createdAt"
         FROM licensing.signing_key WHERE retired_at IS NULL`,
    );
    return rows[0];
  }

  /** Inserts the first key; a concurrent first start's insert wins instead (the caller reads the active one). */
  async insertFirst(row: Omit<SigningKeyRow, 'createdAt'>): Promise<void> {
    await this.store.pool.query(
      `INSERT INTO licensing.signing_key (id, algorithm, public_key, private_key_sealed) VALUES ($1, 'EdDSA', $2, $3) ON CONFLICT DO NOTHING`,
      [row.id, row.publicKey, row.privateKeySealed],
    );
  }
}

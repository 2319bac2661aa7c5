import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_key' })
export class ApiKeyRow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ type: 'text', unique: true }) prefix: string;
  @Column({ type: 'bytea' }) hash: Buffer;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) email: string | null;
  @Column({ type: 'text' }) role: 'client' | 'admin';
  @Column({ name: 'plan_code', type: 'text' }) planCode: 'free' | 'pro' | 'enterprise';
  @Column({ name: 'daily_limit', type: 'integer', nullable: true }) dailyLimit: number | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  /** The administrator key the system seeded (ADMIN_API_KEY or generated at the first start); a new ADMIN_API_KEY replaces it. */
  @Column({ type: 'boolean', default: false }) bootstrap: boolean;
}

@Entity({ name: 'daily_usage' })
export class DailyUsageRow {
  @PrimaryColumn({ name: 'key_id', type: 'uuid' }) keyId: string;
  @PrimaryColumn({ type: 'date' }) day: string;
  @Column({ type: 'integer' }) count: number;
}

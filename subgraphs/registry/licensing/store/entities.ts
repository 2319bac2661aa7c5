import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The catalogue tables, administered through TypeORM; licences, releases and deployments use SQL (store/*-store.ts). */
@Entity({ name: 'organisation' })
export class OrganisationRow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ type: 'text', unique: true }) slug: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

@Entity({ name: 'workspace_user' })
export class WorkspaceUserRow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId: string;
  @Column({ type: 'text' }) email: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) role: 'owner' | 'member';
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

@Entity({ name: 'product' })
export class ProductRow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ type: 'text', unique: true }) code: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'manifest_template', type: 'json' }) manifestTemplate: unknown;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

@Entity({ name: 'plan' })
export class PlanRow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'product_id', type: 'uuid' }) productId: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'max_nodes', type: 'integer' }) maxNodes: number;
  @Column({ name: 'heartbeat_interval_seconds', type: 'integer' }) heartbeatIntervalSeconds: number;
  @Column({ name: 'heartbeat_drift_seconds', type: 'integer' }) heartbeatDriftSeconds: number;
  @Column({ type: 'text', array: true }) entitlements: string[];
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DEFAULT_MAINTENANCE_MESSAGE } from '../../domain/settings';

export class NodeInit1733000000000 implements MigrationInterface {
  name = 'NodeInit1733000000000';

  async up(q: QueryRunner): Promise<void> {
    // the settings record: one row (django-solo style), the sixteen toggles of the contract
    await q.query(`
      CREATE TABLE node.settings (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        shop_enabled boolean NOT NULL DEFAULT true,
        investments_enabled boolean NOT NULL DEFAULT true,
        virtual_iban_enabled boolean NOT NULL DEFAULT true,
        african_accounts_enabled boolean NOT NULL DEFAULT true,
        mobile_money_enabled boolean NOT NULL DEFAULT true,
        kyc_required boolean NOT NULL DEFAULT true,
        disputes_enabled boolean NOT NULL DEFAULT true,
        crypto_enabled boolean NOT NULL DEFAULT true,
        fiat_ramps_enabled boolean NOT NULL DEFAULT true,
        rewards_enabled boolean NOT NULL DEFAULT true,
        enforce_2fa boolean NOT NULL DEFAULT false,
        enhanced_kyc_required boolean NOT NULL DEFAULT false,
        maintenance_mode boolean NOT NULL DEFAULT false,
        maintenance_message text NOT NULL DEFAULT ${quote(DEFAULT_MAINTENANCE_MESSAGE)} CHECK (length(maintenance_message) BETWEEN 1 AND 500),
        brokerage_provider text NOT NULL DEFAULT 'equities_brokerage'
          CHECK (brokerage_provider IN ('decentralized_exchange', 'equities_brokerage', 'market_data')),
        fractional_shares_enabled boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text
      )`);
    await q.query('INSERT INTO node.settings (id) VALUES (1)');
    await q.query(`
      CREATE TABLE node.branding (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        organisation_name text NOT NULL DEFAULT 'Finance Node',
        legal_entity text NOT NULL DEFAULT '',
        logo_url text NOT NULL DEFAULT '',
        favicon_url text NOT NULL DEFAULT '',
        color_primary text NOT NULL DEFAULT '#1d4ed8' CHECK (color_primary ~ '^#[0-9a-fA-F]{6}$'),
        color_secondary text NOT NULL DEFAULT '#0f172a' CHECK (color_secondary ~ '^#[0-9a-fA-F]{6}$'),
        color_accent text NOT NULL DEFAULT '#f59e0b' CHECK (color_accent ~ '^#[0-9a-fA-F]{6}$'),
        support_email text NOT NULL DEFAULT '',
        support_phone text NOT NULL DEFAULT '',
        terms_url text NOT NULL DEFAULT '',
        privacy_url text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text
      )`);
    await q.query('INSERT INTO node.branding (id) VALUES (1)');
    // third-party credentials, sealed with AES-256-GCM (lib/secret-box.ts); only a masked hint is ever shown
    await q.query(`
      CREATE TABLE node.provider_credential (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 100),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        secret_sealed text NOT NULL,
        secret_hint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text,
        UNIQUE (provider, name)
      )`);
    // the installed licence (one row): token and public key as installed, and from where
    await q.query(`
      CREATE TABLE node.licence (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        token text NOT NULL,
        public_key text NOT NULL,
        source text NOT NULL CHECK (source IN ('environment', 'admin', 'cli', 'registry', 'api')),
        installed_at timestamptz NOT NULL DEFAULT now(),
        installed_by text
      )`);
    // this node's registration with the licence registry (finance:activate)
    await q.query(`
      CREATE TABLE node.deployment (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        registry_url text NOT NULL,
        deployment_id text,
        deployment_key text NOT NULL,
        heartbeat_interval_seconds integer NOT NULL CHECK (heartbeat_interval_seconds > 0),
        next_heartbeat_at timestamptz,
        last_heartbeat_at timestamptz,
        last_heartbeat_status text,
        registered_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE node.audit_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        action text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query('CREATE INDEX audit_log_at ON node.audit_log (at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['audit_log', 'deployment', 'licence', 'provider_credential', 'branding', 'settings']) await q.query(`DROP TABLE node.${t}`);
  }
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

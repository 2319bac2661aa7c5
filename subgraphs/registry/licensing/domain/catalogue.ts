import { badInput, conflict, notFound } from '../../../../lib/errors';
import type { CatalogueStore } from '../store/catalogue-store';
import type { OrganisationRow, PlanRow, ProductRow, WorkspaceUserRow } from '../store/entities';
import type { AuditLog } from './audit';
import { parseManifestTemplate } from './manifests/template';

const CODE_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NewPlan {
  product: string;
  code: string;
  name: string;
  maxNodes: number;
  heartbeatIntervalSeconds?: number | null;
  heartbeatDriftSeconds?: number | null;
  entitlements?: string[] | null;
}

/** Six hours, the contract's example interval. */
export const DEFAULT_HEARTBEAT_INTERVAL_SECONDS = 21_600;
export const DEFAULT_HEARTBEAT_DRIFT_SECONDS = 300;

const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 63);

/** Unique violations of the catalogue's natural keys are the caller's conflict, not a fault. */
async function unique<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(message);
    throw err;
  }
}

/** The vendor's catalogue: customer organisations (and their workspace users), products and plans. */
export class CatalogueService {
  constructor(
    private readonly store: CatalogueStore,
    private readonly audit: AuditLog,
  ) {}

  async createOrganisation(input: { name: string; slug?: string | null }, actor: string): Promise<OrganisationRow> {
    const name = input.name?.trim() ?? '';
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.', { name: ['1 to 200 characters'] });
    const slug = (input.slug?.trim() || slugOf(name)).toLowerCase();
    if (!CODE_RE.test(slug)) throw badInput('slug must be lower-case letters, digits and dashes.', { slug: ['[a-z0-9-], up to 63 characters'] });
    const row = await unique(this.store.insertOrganisation({ name, slug }), `An organisation "${slug}" exists already.`);
    await this.audit.record(undefined, {
      action: 'organisation.created',
      actor,
      organisationId: row.id,
      subjectType: 'organisation',
      subjectId: row.id,
      details: { name, slug },
    });
    return row;
  }

  async addWorkspaceUser(
    input: { organisation: string; email: string; name: string; role?: 'owner' | 'member' | null },
    actor: string,
  ): Promise<WorkspaceUserRow> {
    const organisation = await this.organisation(input.organisation);
    const email = input.email?.trim().toLowerCase() ?? '';
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw badInput('email must be an e-mail address.', { email: ['an e-mail address'] });
    const name = input.name?.trim() ?? '';
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.', { name: ['1 to 200 characters'] });
    const row = await unique(
      this.store.insertUser({ organisationId: organisation.id, email, name, role: input.role ?? 'member' }),
      `${email} is already a user of ${organisation.name}.`,
    );
    await this.audit.record(undefined, {
      action: 'workspace_user.added',
      actor,
      organisationId: organisation.id,
      subjectType: 'workspace_user',
      subjectId: row.id,
      details: { email, role: row.role },
    });
    return row;
  }

  async createProduct(input: { code: string; name: string; manifestTemplate: unknown }, actor: string): Promise<ProductRow> {
    const code = input.code?.trim() ?? '';
    if (!CODE_RE.test(code)) throw badInput('code must be lower-case letters, digits and dashes.', { code: ['[a-z0-9-], up to 63 characters'] });
    const name = input.name?.trim() ?? '';
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.', { name: ['1 to 200 characters'] });
    const manifestTemplate = parseManifestTemplate(input.manifestTemplate);
    const row = await unique(this.store.insertProduct({ code, name, manifestTemplate }), `A product "${code}" exists already.`);
    await this.audit.record(undefined, { action: 'product.created', actor, subjectType: 'product', subjectId: row.id, details: { code, name } });
    return row;
  }

  async createPlan(input: NewPlan, actor: string): Promise<PlanRow> {
    const product = await this.product(input.product);
    const code = input.code?.trim() ?? '';
    if (!CODE_RE.test(code)) throw badInput('code must be lower-case letters, digits and dashes.', { code: ['[a-z0-9-], up to 63 characters'] });
    const name = input.name?.trim() ?? '';
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.', { name: ['1 to 200 characters'] });
    const int = (value: number | null | undefined, fallback: number, min: number, max: number, field: string) => {
      const n = value ?? fallback;
      if (!Number.isInteger(n) || n < min || n > max)
        throw badInput(`${field} must be a whole number from ${min} to ${max}.`, { [field]: [`${min} to ${max}`] });
      return n;
    };
    const entitlements = [...new Set((input.entitlements ?? []).map((e) => e.trim()).filter(Boolean))].sort();
    for (const e of entitlements) if (!CODE_RE.test(e)) throw badInput(`Entitlement "${e}" must be lower-case letters, digits and dashes.`);
    const row = await unique(
      this.store.insertPlan({
        productId: product.id,
        code,
        name,
        maxNodes: int(input.maxNodes, 1, 1, 100_000, 'maxNodes'),
        heartbeatIntervalSeconds: int(input.heartbeatIntervalSeconds, DEFAULT_HEARTBEAT_INTERVAL_SECONDS, 60, 2_592_000, 'heartbeatIntervalSeconds'),
        heartbeatDriftSeconds: int(input.heartbeatDriftSeconds, DEFAULT_HEARTBEAT_DRIFT_SECONDS, 0, 86_400, 'heartbeatDriftSeconds'),
        entitlements,
      }),
      `Product ${product.code} has a plan "${code}" already.`,
    );
    await this.audit.record(undefined, {
      action: 'plan.created',
      actor,
      subjectType: 'plan',
      subjectId: row.id,
      details: { product: product.code, code, maxNodes: row.maxNodes, entitlements },
    });
    return row;
  }

  /** By id or slug. */
  async organisation(ref: string): Promise<OrganisationRow> {
    const text = (ref ?? '').trim();
    const row = UUID_RE.test(text) ? await this.store.organisation(text) : await this.store.organisationBySlug(text);
    if (!row) throw notFound(`No organisation "${text}".`);
    return row;
  }

  /** By id or code. */
  async product(ref: string): Promise<ProductRow> {
    const text = (ref ?? '').trim();
    const row = UUID_RE.test(text) ? await this.store.product(text) : await this.store.productByCode(text);
    if (!row) throw notFound(`No product "${text}".`);
    return row;
  }

  productByCode(code: string): Promise<ProductRow | null> {
    return this.store.productByCode(code);
  }

  organisations = () => this.store.listOrganisations();
  products = () => this.store.listProducts();
  organisationsByIds = (ids: readonly string[]) => this.store.organisationsByIds(ids);
  productsByIds = (ids: readonly string[]) => this.store.productsByIds(ids);
  plansByIds = (ids: readonly string[]) => this.store.plansByIds(ids);
  plansOf = (productIds: readonly string[]) => this.store.plansOf(productIds);
  usersOf = (organisationIds: readonly string[]) => this.store.usersOf(organisationIds);
}

import type { Store } from '../../../../lib/database';
import { OrganisationRow, PlanRow, ProductRow, WorkspaceUserRow } from './entities';

/** Organisations (customers) and their workspace users, products and plans. */
export class CatalogueStore {
  constructor(private readonly store: Store) {}

  private get organisations() {
    return this.store.dataSource.getRepository(OrganisationRow);
  }
  private get users() {
    return this.store.dataSource.getRepository(WorkspaceUserRow);
  }
  private get products() {
    return this.store.dataSource.getRepository(ProductRow);
  }
  private get plans() {
    return this.store.dataSource.getRepository(PlanRow);
  }

  insertOrganisation(row: Pick<OrganisationRow, 'slug' | 'name'>): Promise<OrganisationRow> {
    return this.organisations.save(this.organisations.create(row));
  }
  organisation(id: string): Promise<OrganisationRow | null> {
    return this.organisations.findOneBy({ id });
  }
  organisationBySlug(slug: string): Promise<OrganisationRow | null> {
    return this.organisations.findOneBy({ slug });
  }
  organisationsByIds(ids: readonly string[]): Promise<OrganisationRow[]> {
    return this.organisations.createQueryBuilder('o').where('o.id = ANY(:ids)', { ids }).getMany();
  }
  listOrganisations(): Promise<OrganisationRow[]> {
    return this.organisations.find({ order: { name: 'ASC' } });
  }

  insertUser(row: Pick<WorkspaceUserRow, 'organisationId' | 'email' | 'name' | 'role'>): Promise<WorkspaceUserRow> {
    return this.users.save(this.users.create(row));
  }
  usersOf(organisationIds: readonly string[]): Promise<WorkspaceUserRow[]> {
    return this.users.createQueryBuilder('u').where('u.organisation_id = ANY(:ids)', { ids: organisationIds }).orderBy('u.email').getMany();
  }

  insertProduct(row: Pick<ProductRow, 'code' | 'name' | 'manifestTemplate'>): Promise<ProductRow> {
    return this.products.save(this.products.create(row));
  }
  product(id: string): Promise<ProductRow | null> {
    return this.products.findOneBy({ id });
  }
  productByCode(code: string): Promise<ProductRow | null> {
    return this.products.findOneBy({ code });
  }
  productsByIds(ids: readonly string[]): Promise<ProductRow[]> {
    return this.products.createQueryBuilder('p').where('p.id = ANY(:ids)', { ids }).getMany();
  }
  listProducts(): Promise<ProductRow[]> {
    return this.products.find({ order: { code: 'ASC' } });
  }
  async setProductTemplate(id: string, manifestTemplate: unknown): Promise<void> {
    await this.products.update({ id }, { manifestTemplate: manifestTemplate as object });
  }

  insertPlan(row: Omit<PlanRow, 'id' | 'createdAt'>): Promise<PlanRow> {
    return this.plans.save(this.plans.create(row));
  }
  plan(id: string): Promise<PlanRow | null> {
    return this.plans.findOneBy({ id });
  }
  planByCode(productId: string, code: string): Promise<PlanRow | null> {
    return this.plans.findOneBy({ productId, code });
  }
  plansOf(productIds: readonly string[]): Promise<PlanRow[]> {
    return this.plans.createQueryBuilder('p').where('p.product_id = ANY(:ids)', { ids: productIds }).orderBy('p.max_nodes').getMany();
  }
  plansByIds(ids: readonly string[]): Promise<PlanRow[]> {
    return this.plans.createQueryBuilder('p').where('p.id = ANY(:ids)', { ids }).getMany();
  }
}

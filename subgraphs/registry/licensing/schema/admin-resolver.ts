import DataLoader from 'dataloader';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { pageSize } from '../../../../lib/pagination';
import { requestLoader, type SubgraphContext } from '../../../../lib/subgraph';
import { actorOf, AUDIT_ACTIONS } from '../domain/audit';
import { badInput } from '../../../../lib/errors';
import type { LicensingServices } from '../services';
import type { DeploymentRow } from '../store/deployment-store';
import { toArtifact, toAuditEvent, toDeployment, toLicence, toOrganisation, toPlan, toProduct, toRelease } from './mappers';
import {
  AddWorkspaceUserInput,
  Artifact,
  ArtifactUpload,
  CreatedLicence,
  CreateArtifactUploadInput,
  CreateLicenceInput,
  CreateLicencePlanInput,
  CreateLicensingProductInput,
  CreateRegistryOrganisationInput,
  CreateReleaseInput,
  Deployment,
  DeploymentHeartbeat,
  DeploymentStatusEnum,
  Licence,
  LicencePlan,
  LicenceStatusEnum,
  LicensingProduct,
  RegistryAuditEvent,
  RegistryOrganisation,
  RegistryUpkeep,
  Release,
  ReleaseChannelEnum,
  ReleaseStatusEnum,
  WorkspaceRoleEnum,
  WorkspaceUser,
} from './types';

/** Per-request loaders: relations of listed objects are fetched in one query per relation, never one per object. */
function loaders(ctx: SubgraphContext, services: LicensingServices) {
  return requestLoader(ctx, 'licensing', () => {
    const byId = <T extends { id: string }>(rows: T[], ids: readonly string[]) => ids.map((id) => rows.find((r) => r.id === id) ?? new Error(`missing ${id}`));
    const grouped = <T>(rows: T[], ids: readonly string[], key: (r: T) => string) => ids.map((id) => rows.filter((r) => key(r) === id));
    return {
      organisation: new DataLoader(async (ids: readonly string[]) => byId(await services.catalogue.organisationsByIds(ids), ids)),
      product: new DataLoader(async (ids: readonly string[]) => byId(await services.catalogue.productsByIds(ids), ids)),
      plan: new DataLoader(async (ids: readonly string[]) => byId(await services.catalogue.plansByIds(ids), ids)),
      licence: new DataLoader(async (ids: readonly string[]) => byId(await services.licences.byIds(ids), ids)),
      plansOf: new DataLoader(async (ids: readonly string[]) => grouped(await services.catalogue.plansOf(ids), ids, (p) => p.productId)),
      usersOf: new DataLoader(async (ids: readonly string[]) => grouped(await services.catalogue.usersOf(ids), ids, (u) => u.organisationId)),
      licencesOf: new DataLoader(async (ids: readonly string[]) => grouped(await services.licences.ofOrganisations(ids), ids, (l) => l.organisationId)),
      artifactsOf: new DataLoader(async (ids: readonly string[]) => grouped(await services.releases.artifactsOf(ids), ids, (a) => a.releaseId)),
      nodesInUse: new DataLoader(async (ids: readonly string[]) => {
        const counts = await services.licences.nodesInUse(ids);
        return ids.map((id) => counts.get(id) ?? 0);
      }),
      deploymentsOf: new DataLoader(async (ids: readonly string[]) => grouped(await services.deployments.list({ licenceIds: ids }), ids, (d) => d.licenceId)),
    };
  });
}

/** The vendor's administration (administrator key): catalogue, licences, releases, artifacts, deployments, audit. */
@Resolver()
export class RegistryAdminResolver {
  constructor(private readonly services: LicensingServices) {}

  @Authorized('admin')
  @Query(() => [RegistryOrganisation], { description: 'Customer organisations.' })
  async registryOrganisations(): Promise<RegistryOrganisation[]> {
    return (await this.services.catalogue.organisations()).map(toOrganisation);
  }

  @Authorized('admin')
  @Query(() => [LicensingProduct])
  async licensingProducts(): Promise<LicensingProduct[]> {
    return (await this.services.catalogue.products()).map(toProduct);
  }

  @Authorized('admin')
  @Query(() => [Licence])
  async licences(
    @Arg('organisation', () => String, { nullable: true, description: 'id or slug' }) organisation?: string | null,
    @Arg('product', () => String, { nullable: true, description: 'id or code' }) product?: string | null,
    @Arg('status', () => LicenceStatusEnum, { nullable: true }) status?: LicenceStatusEnum | null,
  ): Promise<Licence[]> {
    const rows = await this.services.licences.list({
      organisationId: organisation ? (await this.services.catalogue.organisation(organisation)).id : null,
      productId: product ? (await this.services.catalogue.product(product)).id : null,
      status,
    });
    return rows.map((r) => toLicence(r));
  }

  @Authorized('admin')
  @Query(() => Licence)
  async licence(@Arg('licence', { description: 'id, full key, or key prefix (LIC-ABCD)' }) ref: string): Promise<Licence> {
    return toLicence(await this.services.licences.find(ref));
  }

  @Authorized('admin')
  @Query(() => String, { description: 'The full key of a licence (kept sealed; shown on demand).' })
  async licenceKey(@Arg('licence', { description: 'id or key prefix' }) ref: string): Promise<string> {
    return this.services.licences.revealKey(await this.services.licences.find(ref));
  }

  @Authorized('admin')
  @Query(() => [Release], { description: 'Every release (drafts and yanked ones too), newest first per product.' })
  async releases(
    @Arg('product', () => String, { nullable: true }) product?: string | null,
    @Arg('channel', () => ReleaseChannelEnum, { nullable: true }) channel?: ReleaseChannelEnum | null,
    @Arg('statuses', () => [ReleaseStatusEnum], { nullable: true }) statuses?: ReleaseStatusEnum[] | null,
  ): Promise<Release[]> {
    return (await this.services.releases.list({ product, channel, statuses })).map(toRelease);
  }

  @Authorized('admin')
  @Query(() => [Deployment])
  async registryDeployments(
    @Arg('licence', () => String, { nullable: true, description: 'id or key prefix' }) licence?: string | null,
    @Arg('status', () => DeploymentStatusEnum, { nullable: true }) status?: DeploymentStatusEnum | null,
  ): Promise<Deployment[]> {
    const licenceIds = licence ? [(await this.services.licences.find(licence)).id] : null;
    const rows = await this.services.deployments.list({ licenceIds });
    return rows.map((d) => this.deployment(d)).filter((d) => !status || d.status === status);
  }

  @Authorized('admin')
  @Query(() => [RegistryAuditEvent], { description: 'The audit trail, newest first.' })
  async registryAuditEvents(
    @Arg('licence', () => String, { nullable: true }) licence?: string | null,
    @Arg('organisation', () => String, { nullable: true }) organisation?: string | null,
    @Arg('actions', () => [String], { nullable: true }) actions?: string[] | null,
    @Arg('since', () => Date, { nullable: true }) since?: Date | null,
    @Arg('before', () => ID, { nullable: true, description: 'Events older than this event id (paging).' }) before?: string | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<RegistryAuditEvent[]> {
    for (const a of actions ?? []) if (!(AUDIT_ACTIONS as readonly string[]).includes(a)) throw badInput(`Unknown action "${a}"; actions: ${AUDIT_ACTIONS.join(', ')}.`);
    if (before && !/^\d+$/.test(before)) throw badInput('before must be an event id.');
    const rows = await this.services.audit.list({
      licenceId: licence ? (await this.services.licences.find(licence)).id : null,
      organisationId: organisation ? (await this.services.catalogue.organisation(organisation)).id : null,
      actions,
      since,
      before: before ? Number(before) : null,
      first: pageSize(first, 50, 500),
    });
    return rows.map(toAuditEvent);
  }

  @Authorized('admin')
  @Mutation(() => RegistryOrganisation)
  async createRegistryOrganisation(@Ctx() ctx: SubgraphContext, @Arg('input') input: CreateRegistryOrganisationInput): Promise<RegistryOrganisation> {
    return toOrganisation(await this.services.catalogue.createOrganisation(input, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => WorkspaceUser)
  async addWorkspaceUser(@Ctx() ctx: SubgraphContext, @Arg('input') input: AddWorkspaceUserInput): Promise<WorkspaceUser> {
    const row = await this.services.catalogue.addWorkspaceUser(input, actorOf(ctx.principal));
    return { ...row, role: row.role as WorkspaceRoleEnum };
  }

  @Authorized('admin')
  @Mutation(() => LicensingProduct)
  async createLicensingProduct(@Ctx() ctx: SubgraphContext, @Arg('input') input: CreateLicensingProductInput): Promise<LicensingProduct> {
    return toProduct(await this.services.catalogue.createProduct(input, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => LicencePlan)
  async createLicencePlan(@Ctx() ctx: SubgraphContext, @Arg('input') input: CreateLicencePlanInput): Promise<LicencePlan> {
    return toPlan(await this.services.catalogue.createPlan(input, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => CreatedLicence, { description: 'Issues a licence; the answer shows its full key.' })
  async createLicence(@Ctx() ctx: SubgraphContext, @Arg('input') input: CreateLicenceInput): Promise<CreatedLicence> {
    const { key, licence } = await this.services.licences.create(input, actorOf(ctx.principal));
    return { key, licence: toLicence(licence) };
  }

  @Authorized('admin')
  @Mutation(() => Licence, { description: 'Suspends an Active licence: its key stops working at once, in every process.' })
  async suspendLicence(@Ctx() ctx: SubgraphContext, @Arg('licence') ref: string, @Arg('reason', () => String, { nullable: true }) reason?: string | null): Promise<Licence> {
    return toLicence(await this.services.licences.suspend(ref, actorOf(ctx.principal), reason));
  }

  @Authorized('admin')
  @Mutation(() => Licence, { description: 'Makes a Suspended licence Active again.' })
  async reinstateLicence(@Ctx() ctx: SubgraphContext, @Arg('licence') ref: string, @Arg('reason', () => String, { nullable: true }) reason?: string | null): Promise<Licence> {
    return toLicence(await this.services.licences.reinstate(ref, actorOf(ctx.principal), reason));
  }

  @Authorized('admin')
  @Mutation(() => Licence, { description: 'Revokes a licence for good.' })
  async revokeLicence(@Ctx() ctx: SubgraphContext, @Arg('licence') ref: string, @Arg('reason', () => String, { nullable: true }) reason?: string | null): Promise<Licence> {
    return toLicence(await this.services.licences.revoke(ref, actorOf(ctx.principal), reason));
  }

  @Authorized('admin')
  @Mutation(() => Licence, { description: 'Sets the last day of maintenance (YYYY-MM-DD).' })
  async extendLicenceMaintenance(@Ctx() ctx: SubgraphContext, @Arg('licence') ref: string, @Arg('until') until: string): Promise<Licence> {
    return toLicence(await this.services.licences.extendMaintenance(ref, until, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => Release, { description: 'A draft release; upload its artifacts, then publish it.' })
  async createRelease(@Ctx() ctx: SubgraphContext, @Arg('input') input: CreateReleaseInput): Promise<Release> {
    return toRelease(await this.services.releases.create(input, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => Release, { description: 'Publishes a draft whose artifacts are all uploaded.' })
  async publishRelease(@Ctx() ctx: SubgraphContext, @Arg('release', { description: 'id or <product>@<version>' }) ref: string): Promise<Release> {
    return toRelease(await this.services.releases.publish(ref, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => Release, { description: 'Withdraws a published release.' })
  async yankRelease(@Ctx() ctx: SubgraphContext, @Arg('release') ref: string, @Arg('reason', () => String, { nullable: true }) reason?: string | null): Promise<Release> {
    return toRelease(await this.services.releases.yank(ref, actorOf(ctx.principal), reason));
  }

  @Authorized('admin')
  @Mutation(() => ArtifactUpload, { description: 'An artifact of a draft release and a link to PUT its archive to (then completeArtifactUpload).' })
  async createArtifactUpload(
    @Arg('input') input: CreateArtifactUploadInput,
    @Arg('baseUrl', () => String, { nullable: true }) baseUrl?: string | null,
  ): Promise<ArtifactUpload> {
    const { artifact, url, expiresAt, contentType } = await this.services.artifacts.createUpload(input, this.services.baseUrl(baseUrl));
    return { artifact: toArtifact(artifact), uploadUrl: url, expiresAt, contentType };
  }

  @Authorized('admin')
  @Mutation(() => Artifact, { description: 'Checks the uploaded bytes (size, SHA-256, image archive) and records them.' })
  async completeArtifactUpload(
    @Ctx() ctx: SubgraphContext,
    @Arg('artifactId', () => ID) artifactId: string,
    @Arg('image', () => String, { nullable: true, description: "Default: the archive's own repository:tag." }) image?: string | null,
  ): Promise<Artifact> {
    return toArtifact(await this.services.artifacts.completeUpload(artifactId, image ?? null, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => Deployment, { description: "Removes a node, freeing its seat (a decommissioned host)." })
  async deregisterDeployment(@Ctx() ctx: SubgraphContext, @Arg('id', () => ID) id: string): Promise<Deployment> {
    return this.deployment(await this.services.deployments.deregister(id, actorOf(ctx.principal)), DeploymentStatusEnum.dead);
  }

  @Authorized('admin')
  @Mutation(() => RegistryUpkeep, { description: 'Runs the scheduled upkeep now: culls dead deployments, records expiries, purges spent tokens.' })
  runRegistryUpkeep(): Promise<RegistryUpkeep> {
    return this.services.upkeep();
  }

  private deployment(d: DeploymentRow, status?: DeploymentStatusEnum): Deployment {
    return toDeployment(d, status ?? (this.services.deployments.statusOf(d) as DeploymentStatusEnum));
  }
}

@Resolver(() => RegistryOrganisation)
export class RegistryOrganisationResolver {
  constructor(private readonly services: LicensingServices) {}

  @FieldResolver(() => [WorkspaceUser])
  async workspaceUsers(@Root() o: RegistryOrganisation, @Ctx() ctx: SubgraphContext): Promise<WorkspaceUser[]> {
    return (await loaders(ctx, this.services).usersOf.load(o.id)).map((u) => ({ ...u, role: u.role as WorkspaceRoleEnum }));
  }

  @Authorized('admin')
  @FieldResolver(() => [Licence])
  async licences(@Root() o: RegistryOrganisation, @Ctx() ctx: SubgraphContext): Promise<Licence[]> {
    return (await loaders(ctx, this.services).licencesOf.load(o.id)).map((l) => toLicence(l));
  }
}

@Resolver(() => LicensingProduct)
export class LicensingProductResolver {
  constructor(private readonly services: LicensingServices) {}

  @FieldResolver(() => [LicencePlan])
  async plans(@Root() p: LicensingProduct, @Ctx() ctx: SubgraphContext): Promise<LicencePlan[]> {
    return (await loaders(ctx, this.services).plansOf.load(p.id)).map(toPlan);
  }
}

@Resolver(() => Licence)
export class LicenceFieldsResolver {
  constructor(private readonly services: LicensingServices) {}

  @FieldResolver(() => RegistryOrganisation)
  async organisation(@Root() l: Licence, @Ctx() ctx: SubgraphContext): Promise<RegistryOrganisation> {
    return toOrganisation(await loaders(ctx, this.services).organisation.load(l.organisationId));
  }

  @FieldResolver(() => LicensingProduct)
  async product(@Root() l: Licence, @Ctx() ctx: SubgraphContext): Promise<LicensingProduct> {
    return toProduct(await loaders(ctx, this.services).product.load(l.productId));
  }

  @FieldResolver(() => LicencePlan)
  async plan(@Root() l: Licence, @Ctx() ctx: SubgraphContext): Promise<LicencePlan> {
    return toPlan(await loaders(ctx, this.services).plan.load(l.planId));
  }

  @FieldResolver(() => Int, { description: 'Seats held now by alive deployments.' })
  nodesInUse(@Root() l: Licence, @Ctx() ctx: SubgraphContext): Promise<number> {
    return loaders(ctx, this.services).nodesInUse.load(l.id);
  }

  @FieldResolver(() => [Deployment])
  async deployments(@Root() l: Licence, @Ctx() ctx: SubgraphContext): Promise<Deployment[]> {
    return (await loaders(ctx, this.services).deploymentsOf.load(l.id)).map((d) => toDeployment(d, this.services.deployments.statusOf(d) as DeploymentStatusEnum));
  }
}

@Resolver(() => Release)
export class ReleaseFieldsResolver {
  constructor(private readonly services: LicensingServices) {}

  @FieldResolver(() => LicensingProduct)
  async product(@Root() r: Release, @Ctx() ctx: SubgraphContext): Promise<LicensingProduct> {
    return toProduct(await loaders(ctx, this.services).product.load(r.productId));
  }

  @FieldResolver(() => [Artifact])
  async artifacts(@Root() r: Release, @Ctx() ctx: SubgraphContext): Promise<Artifact[]> {
    return (await loaders(ctx, this.services).artifactsOf.load(r.id)).map(toArtifact);
  }
}

@Resolver(() => Deployment)
export class DeploymentFieldsResolver {
  constructor(private readonly services: LicensingServices) {}

  @FieldResolver(() => Licence)
  async licence(@Root() d: Deployment, @Ctx() ctx: SubgraphContext): Promise<Licence> {
    return toLicence(await loaders(ctx, this.services).licence.load(d.licenceId));
  }

  @FieldResolver(() => [DeploymentHeartbeat], { description: 'Metrics history, newest first.' })
  async heartbeats(@Root() d: Deployment, @Ctx() ctx: SubgraphContext, @Arg('first', () => Int, { nullable: true }) first?: number | null): Promise<DeploymentHeartbeat[]> {
    const n = pageSize(first, 20, 200);
    // one loader per page size: every deployment of the request in one query
    const loader = requestLoader(
      ctx,
      `licensing.heartbeats.${n}`,
      () =>
        new DataLoader(async (ids: readonly string[]) => {
          const beats = await this.services.deployments.heartbeats(ids, n);
          return ids.map((id) => beats.get(id) ?? []);
        }),
    );
    return loader.load(d.id);
  }
}

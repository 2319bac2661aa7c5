import { Arg, Authorized, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { badInput, notFound } from '../../../../lib/errors';
import type { PrincipalOf } from '../../../../lib/principal';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { actorOf } from '../domain/audit';
import { contrastOf } from '../domain/branding';
import type { LicensingServices } from '../services';
import type { BrandingRow, BuildRow } from '../store/workspace-store';
import { toArtifact, toDeployment } from './mappers';
import {
  ArtifactDownload,
  Deployment,
  DeploymentStatusEnum,
  LicenceStatusEnum,
  LicenceSummary,
  LicensedRelease,
  RegistryOrganisation,
  ReleaseChannelEnum,
  ReleaseManifest,
  WorkspaceRoleEnum,
  AddWorkspaceUserInput,
} from './types';
import {
  Branding,
  BuildPackageEnum,
  FrontendBuild,
  FrontendBuildStatusEnum,
  InviteWorkspaceUserInput,
  SaveBrandingInput,
  WorkspaceAccount,
  WorkspaceInvitation,
  WorkspaceSession,
  WorkspaceSessionAuthentication,
} from './workspace-types';

const userOf = (ctx: SubgraphContext) => ctx.principal as PrincipalOf<'workspace-user'>;
const BASE_URL = { nullable: true, description: "Base URL of the links in the answer (default: the registry's public URL)." } as const;

export const toBranding = (b: BrandingRow): Branding => ({
  ...b,
  logo: b.logo && { contentType: b.logo.contentType, size: b.logo.size, sha256: b.logo.sha256 },
  favicon: b.favicon && { contentType: b.favicon.contentType, size: b.favicon.size, sha256: b.favicon.sha256 },
  primaryContrast: contrastOf(b.primaryColor),
  accentContrast: contrastOf(b.accentColor),
});

const toPackage = (p: BuildRow['frontend']) =>
  p && { filename: p.filename, contentType: p.contentType, size: p.size, sha256: p.sha256, image: p.image ?? null, imageId: p.imageId ?? null, kind: p.kind ?? null };

export const toBuild = (b: BuildRow): FrontendBuild => ({
  ...b,
  status: b.status as FrontendBuildStatusEnum,
  frontend: toPackage(b.frontend),
  android: toPackage(b.android),
  ios: toPackage(b.ios),
});

const decode = (base64: string | null | undefined, field: string): Buffer | null => {
  if (!base64) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64.replace(/\s+/g, ''))) throw badInput(`${field} must be base64.`, { [field]: ['base64'] });
  return Buffer.from(base64, 'base64');
};

/**
 * The customer workspace, as a signed-in organisation user sees it: the organisation's licences,
 * deployments, releases, manifests and downloads (each as the licence's own key would), whitelabel
 * branding and custom frontend builds.
 */
@Resolver()
export class WorkspaceResolver {
  constructor(private readonly services: LicensingServices) {}

  @Mutation(() => WorkspaceSession, { description: 'Workspace sign-in (e-mail and password; throttled per address). The session goes into the workspace_session cookie.' })
  signInWorkspace(@Arg('email') email: string, @Arg('password') password: string, @Ctx() ctx: SubgraphContext): Promise<WorkspaceSession> {
    return this.services.workspace.signIn(email, password, ctx.clientAddress);
  }

  @Mutation(() => Boolean, { description: 'Ends a workspace session.' })
  async signOutWorkspace(@Arg('session') session: string): Promise<boolean> {
    await this.services.workspace.signOut(session);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Mails a password reset link (the same answer whether or not the address has an account).' })
  async requestWorkspacePasswordReset(@Arg('email') email: string): Promise<boolean> {
    await this.services.workspace.requestPasswordReset(email);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Sets a password with the token of an invitation or reset link (single use).' })
  async setWorkspacePassword(@Arg('token') token: string, @Arg('password') password: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.workspace.setPassword(token, password, ctx.clientAddress);
    return true;
  }

  /** The gateway verifies workspace session cookies here; an unknown or expired session is anonymous (null). */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => WorkspaceSessionAuthentication, { nullable: true })
  async authenticateWorkspaceSession(@Arg('session') session: string, @Arg('meter') _meter: boolean): Promise<WorkspaceSessionAuthentication | null> {
    const user = await this.services.workspace.authenticate(session);
    if (!user) return null;
    return { userId: user.userId, organisationId: user.organisationId, email: user.email, name: user.name, role: user.role };
  }

  @Authorized('workspace-user')
  @Query(() => WorkspaceAccount)
  async workspaceAccount(@Ctx() ctx: SubgraphContext): Promise<WorkspaceAccount> {
    const user = userOf(ctx);
    const [[organisation], entitlements] = await Promise.all([
      this.services.catalogue.organisationsByIds([user.organisationId]),
      this.services.workspace.entitlements(user.organisationId),
    ]);
    return { ...user, role: user.role as WorkspaceRoleEnum, organisation: { id: organisation.id, name: organisation.name, entitlements } };
  }

  @Authorized('workspace-user')
  @Query(() => [LicenceSummary], { description: "The organisation's licences (keys masked)." })
  async workspaceLicences(@Ctx() ctx: SubgraphContext): Promise<LicenceSummary[]> {
    return (await this.services.workspace.licencesOf(userOf(ctx))).map((l) => ({ ...l, status: l.status as LicenceStatusEnum }));
  }

  @Authorized('workspace-user')
  @Mutation(() => String, { description: 'The full key of one of the organisation’s licences (reveal).' })
  workspaceRevealLicenceKey(@Ctx() ctx: SubgraphContext, @Arg('licenceId', () => ID) licenceId: string): Promise<string> {
    return this.services.workspace.revealKey(userOf(ctx), licenceId);
  }

  @Authorized('workspace-user')
  @Mutation(() => Deployment, {
    description: "Frees a seat of one of the organisation's licences: the deployment is removed and its key stops working (audited, as the API's release).",
  })
  async releaseWorkspaceDeployment(@Ctx() ctx: SubgraphContext, @Arg('id', () => ID) id: string): Promise<Deployment> {
    const released = await this.services.deployments.releaseForOrganisation(userOf(ctx).organisationId, id, actorOf(ctx.principal));
    return toDeployment(released, DeploymentStatusEnum.dead);
  }

  @Authorized('workspace-user')
  @Query(() => [Deployment], { description: "The deployment nodes of the organisation's licences." })
  async workspaceDeployments(@Ctx() ctx: SubgraphContext): Promise<Deployment[]> {
    const licences = await this.services.licences.ofOrganisations([userOf(ctx).organisationId]);
    if (licences.length === 0) return [];
    return (await this.services.deployments.list({ licenceIds: licences.map((l) => l.id) })).map((d) => toDeployment(d, this.services.deployments.statusOf(d) as DeploymentStatusEnum));
  }

  @Authorized('workspace-user')
  @Query(() => [LicensedRelease], { description: 'The releases one of the organisation’s licences sees, newest first.' })
  async workspaceReleases(
    @Ctx() ctx: SubgraphContext,
    @Arg('licenceId', () => ID) licenceId: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<LicensedRelease[]> {
    const licence = await this.services.workspace.licence(userOf(ctx), licenceId);
    const releases = await this.services.releases.forLicence(licence, { baseUrl: this.services.baseUrl(baseUrl) });
    return releases.map((r) => ({ ...r, channel: r.channel as ReleaseChannelEnum, artifacts: r.artifacts.map(toArtifact) }));
  }

  @Authorized('workspace-user')
  @Query(() => ReleaseManifest, { description: 'The compose manifest of a release for one of the organisation’s licences.' })
  async workspaceManifest(
    @Ctx() ctx: SubgraphContext,
    @Arg('licenceId', () => ID) licenceId: string,
    @Arg('releaseId', () => ID) releaseId: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<ReleaseManifest> {
    const licence = await this.services.workspace.licence(userOf(ctx), licenceId);
    return this.services.releases.manifest(licence, { releaseId, format: 'compose', baseUrl: this.services.baseUrl(baseUrl) });
  }

  @Authorized('workspace-user')
  @Mutation(() => ArtifactDownload, { description: 'A presigned link to an artifact, authorised by the session (same rules as the licence’s own download).' })
  async workspaceDownload(
    @Ctx() ctx: SubgraphContext,
    @Arg('licenceId', () => ID) licenceId: string,
    @Arg('artifactId', () => ID) artifactId: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<ArtifactDownload> {
    const licence = await this.services.workspace.licence(userOf(ctx), licenceId);
    const download = await this.services.artifacts.download(licence, artifactId, { probe: false, baseUrl: this.services.baseUrl(baseUrl) });
    return { ...download, artifact: toArtifact(download.artifact) };
  }

  @Authorized('workspace-user')
  @Mutation(() => WorkspaceInvitation, { description: 'An owner invites a person to the organisation (a mail with a link to choose a password).' })
  async inviteToWorkspace(@Ctx() ctx: SubgraphContext, @Arg('input') input: InviteWorkspaceUserInput): Promise<WorkspaceInvitation> {
    const { user } = await this.services.workspace.inviteByOwner(userOf(ctx), input);
    return { userId: user.id, email: user.email, role: user.role as WorkspaceRoleEnum };
  }

  @Authorized('workspace-user')
  @Query(() => [Branding], { description: 'The organisation’s branding versions, newest (the current one) first. 403 NOT_ENTITLED without enterprise-whitelabel.' })
  async workspaceBranding(@Ctx() ctx: SubgraphContext): Promise<Branding[]> {
    const { organisationId } = userOf(ctx);
    await this.services.branding.assertEntitled(organisationId);
    return (await this.services.branding.versions(organisationId)).map(toBranding);
  }

  @Authorized('workspace-user')
  @Mutation(() => Branding, { description: 'Saves a new branding version (colours validated and contrast-checked; logo and favicon fetched once or uploaded).' })
  async saveWorkspaceBranding(@Ctx() ctx: SubgraphContext, @Arg('input') input: SaveBrandingInput): Promise<Branding> {
    const user = userOf(ctx);
    const row = await this.services.branding.save(
      user.organisationId,
      { ...input, logo: decode(input.logoBase64, 'logoBase64'), favicon: decode(input.faviconBase64, 'faviconBase64') },
      actorOf(ctx.principal),
    );
    return toBranding(row);
  }

  @Authorized('workspace-user')
  @Query(() => [FrontendBuild], { description: 'The organisation’s custom frontend builds, newest first.' })
  async workspaceBuilds(@Ctx() ctx: SubgraphContext): Promise<FrontendBuild[]> {
    const { organisationId } = userOf(ctx);
    await this.services.branding.assertEntitled(organisationId);
    return (await this.services.builds.list({ organisationId })).map(toBuild);
  }

  @Authorized('workspace-user')
  @Query(() => FrontendBuild, { description: 'One build: status, progress and log.' })
  async workspaceBuild(@Ctx() ctx: SubgraphContext, @Arg('id', () => ID) id: string): Promise<FrontendBuild> {
    const build = /^[0-9a-f-]{36}$/i.test(id) ? await this.services.builds.find(id) : undefined;
    if (!build || build.organisationId !== userOf(ctx).organisationId) throw notFound('No such build.');
    return toBuild(build);
  }

  @Authorized('workspace-user')
  @Mutation(() => FrontendBuild, { description: 'Queues a custom frontend build of the current branding (409 while one is queued or running).' })
  async requestFrontendBuild(@Ctx() ctx: SubgraphContext): Promise<FrontendBuild> {
    return toBuild(await this.services.builds.request(userOf(ctx).organisationId, actorOf(ctx.principal)));
  }

  @Authorized('workspace-user')
  @Mutation(() => String, { description: 'A presigned link to a package of a succeeded build.' })
  workspaceBuildPackage(
    @Ctx() ctx: SubgraphContext,
    @Arg('buildId', () => ID) buildId: string,
    @Arg('package', () => BuildPackageEnum) pkg: BuildPackageEnum,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<string> {
    return this.services.builds.packageLink(userOf(ctx).organisationId, buildId, pkg, this.services.baseUrl(baseUrl), 300);
  }

  @Authorized('licence')
  @Mutation(() => String, { description: 'An installation downloads its organisation’s custom frontend (named by its compose manifest): a presigned link.' })
  customFrontendDownload(
    @Ctx() ctx: SubgraphContext,
    @Arg('buildId', () => ID) buildId: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<string> {
    if (!/^[0-9a-f-]{36}$/i.test(buildId)) throw notFound('No such build.');
    const licence = ctx.principal as PrincipalOf<'licence'>;
    return this.services.builds.packageLink(licence.organisationId, buildId, 'frontend', this.services.baseUrl(baseUrl), 300);
  }
}

/** The vendor's side: organisations' entitlements, branding and builds; grant or revoke whitelabel; re-run a failed build; invitations. */
@Resolver(() => RegistryOrganisation)
export class WorkspaceAdminResolver {
  constructor(private readonly services: LicensingServices) {}

  @Authorized('admin')
  @FieldResolver(() => [String], { description: 'Entitlements the organisation holds: granted by the vendor, or by the plan of one of its Active licences (e.g. enterprise-whitelabel).' })
  entitlements(@Root() o: RegistryOrganisation): Promise<string[]> {
    return this.services.builds.entitlements(o.id);
  }

  @Authorized('admin')
  @FieldResolver(() => [Branding], { description: 'Branding versions, newest first.' })
  async branding(@Root() o: RegistryOrganisation): Promise<Branding[]> {
    return (await this.services.branding.versions(o.id)).map(toBranding);
  }

  @Authorized('admin')
  @FieldResolver(() => [FrontendBuild], { description: 'Custom frontend builds, newest first.' })
  async frontendBuilds(@Root() o: RegistryOrganisation): Promise<FrontendBuild[]> {
    return (await this.services.builds.list({ organisationId: o.id })).map(toBuild);
  }

  @Authorized('admin')
  @Query(() => [FrontendBuild], { name: 'frontendBuilds', description: 'Custom frontend builds of every organisation, newest first.' })
  async allFrontendBuilds(@Arg('status', () => FrontendBuildStatusEnum, { nullable: true }) status?: FrontendBuildStatusEnum | null): Promise<FrontendBuild[]> {
    return (await this.services.builds.list({ status })).map(toBuild);
  }

  @Authorized('admin')
  @Mutation(() => [String], { description: 'Grants an entitlement (e.g. enterprise-whitelabel) to an organisation (id or slug); answers its entitlements.' })
  async grantOrganisationEntitlement(@Ctx() ctx: SubgraphContext, @Arg('organisation') ref: string, @Arg('entitlement') entitlement: string): Promise<string[]> {
    if (!/^[a-z][a-z0-9-]{0,62}$/.test(entitlement)) throw badInput('entitlement must be lower-case letters, digits and dashes.');
    const organisation = await this.services.catalogue.organisation(ref);
    await this.services.builds.grant(organisation.id, entitlement, actorOf(ctx.principal));
    return this.services.builds.entitlements(organisation.id);
  }

  @Authorized('admin')
  @Mutation(() => [String], { description: "Revokes the vendor's grant of an entitlement (one the plan of an Active licence gives stays); without enterprise-whitelabel the manifests go back to the generic frontend." })
  async revokeOrganisationEntitlement(@Ctx() ctx: SubgraphContext, @Arg('organisation') ref: string, @Arg('entitlement') entitlement: string): Promise<string[]> {
    const organisation = await this.services.catalogue.organisation(ref);
    await this.services.builds.revoke(organisation.id, entitlement, actorOf(ctx.principal));
    return this.services.builds.entitlements(organisation.id);
  }

  @Authorized('admin')
  @Mutation(() => FrontendBuild, { description: 'Runs a failed build again (a new build of the organisation’s current branding).' })
  async rerunFrontendBuild(@Ctx() ctx: SubgraphContext, @Arg('buildId', () => ID) buildId: string): Promise<FrontendBuild> {
    if (!/^[0-9a-f-]{36}$/i.test(buildId)) throw notFound('No such build.');
    return toBuild(await this.services.builds.rerun(buildId, actorOf(ctx.principal)));
  }

  @Authorized('admin')
  @Mutation(() => WorkspaceInvitation, { description: 'Invites a person to an organisation’s workspace: the account and a mail with a link to choose a password.' })
  async inviteWorkspaceUser(@Ctx() ctx: SubgraphContext, @Arg('input') input: AddWorkspaceUserInput): Promise<WorkspaceInvitation> {
    const { user } = await this.services.workspace.invite(input, actorOf(ctx.principal));
    return { userId: user.id, email: user.email, role: user.role as WorkspaceRoleEnum };
  }
}

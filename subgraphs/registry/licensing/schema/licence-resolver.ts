import { Arg, Authorized, Ctx, Directive, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PrincipalOf } from '../../../../lib/principal';
import type { SubgraphContext } from '../../../../lib/subgraph';
import type { LicensingServices } from '../services';
import { toArtifact, toDeployment } from './mappers';
import {
  ArtifactDownload,
  Deployment,
  DeploymentHeartbeatInput,
  DeploymentRegistration,
  DeploymentStatusEnum,
  DownloadAuthorization,
  DownloadTokenAuthentication,
  HeartbeatAck,
  LicenceAuthentication,
  LicenceCheckout,
  LicenceStatusEnum,
  LicenceSummary,
  LicensedRelease,
  LicensingPublicKey,
  RegisterDeploymentInput,
  ReleaseChannelEnum,
  ReleaseManifest,
  ReleaseUpdate,
} from './types';

const licenceOf = (ctx: SubgraphContext) => ctx.principal as PrincipalOf<'licence'>;

const BASE_URL = { nullable: true, description: "Base URL of the links in the answer (default: the registry's public URL)." } as const;

/** What a licence key does: its releases, update checks, manifests, downloads, deployment seats, signed licences. */
@Resolver()
export class LicenceResolver {
  constructor(private readonly services: LicensingServices) {}

  @Authorized('licence')
  @Query(() => LicenceSummary, { description: 'The calling licence.' })
  async currentLicence(@Ctx() ctx: SubgraphContext): Promise<LicenceSummary> {
    const summary = await this.services.licences.summary(licenceOf(ctx).licenceId);
    return { ...summary, status: summary.status as LicenceStatusEnum };
  }

  @Authorized('licence')
  @Query(() => [LicensedRelease], { description: "The calling licence's product releases it may see, newest first (all channels, or those `channel` sees)." })
  async licenceReleases(
    @Ctx() ctx: SubgraphContext,
    @Arg('channel', () => ReleaseChannelEnum, { nullable: true }) channel?: ReleaseChannelEnum | null,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<LicensedRelease[]> {
    const releases = await this.services.releases.forLicence(licenceOf(ctx), { channel, baseUrl: this.services.baseUrl(baseUrl) });
    return releases.map((r) => ({ ...r, channel: r.channel as ReleaseChannelEnum, artifacts: r.artifacts.map(toArtifact) }));
  }

  @Authorized('licence')
  @Query(() => ReleaseUpdate, { description: 'Whether a newer release than currentVersion is available on the channel (SemVer precedence).' })
  releaseUpdate(
    @Ctx() ctx: SubgraphContext,
    @Arg('product') product: string,
    @Arg('channel') channel: string,
    @Arg('currentVersion') currentVersion: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<ReleaseUpdate> {
    return this.services.releases.checkUpdate(licenceOf(ctx), { product, channel, currentVersion, baseUrl: this.services.baseUrl(baseUrl) });
  }

  @Authorized('licence')
  @Query(() => ReleaseManifest, { description: 'The release deployment for this licence, in a format (compose).' })
  releaseManifest(
    @Ctx() ctx: SubgraphContext,
    @Arg('releaseId', () => ID) releaseId: string,
    @Arg('format', { defaultValue: 'compose' }) format: string,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<ReleaseManifest> {
    return this.services.releases.manifest(licenceOf(ctx), { releaseId, format, baseUrl: this.services.baseUrl(baseUrl) });
  }

  @Query(() => LicensingPublicKey, { description: "The registry's licence verification key (no credential needed)." })
  licensingPublicKey(): Promise<LicensingPublicKey> {
    return this.services.signing.publicKey();
  }

  @Authorized('licence')
  @Mutation(() => LicenceCheckout, { description: 'A signed licence token for the calling (Active) licence.' })
  checkoutLicence(@Ctx() ctx: SubgraphContext): Promise<LicenceCheckout> {
    const licence = licenceOf(ctx);
    return this.services.signing.checkout(licence.licenceId, `licence:${licence.licenceId}`);
  }

  @Authorized('licence')
  @Mutation(() => DownloadAuthorization, { description: 'A single-use, short-lived download token for one artifact.' })
  authorizeArtifactDownload(@Ctx() ctx: SubgraphContext, @Arg('artifactId', () => ID) artifactId: string): Promise<DownloadAuthorization> {
    return this.services.artifacts.authorize(licenceOf(ctx), artifactId);
  }

  @Authorized(['licence', 'download-token'])
  @Mutation(() => ArtifactDownload, {
    description: 'A presigned link to the artifact (with a token: consumes it). probe: check only, no link, nothing consumed.',
  })
  async downloadArtifact(
    @Ctx() ctx: SubgraphContext,
    @Arg('artifactId', () => ID) artifactId: string,
    @Arg('probe', { defaultValue: false }) probe: boolean,
    @Arg('baseUrl', () => String, BASE_URL) baseUrl?: string | null,
  ): Promise<ArtifactDownload> {
    const principal = ctx.principal as PrincipalOf<'licence'> | PrincipalOf<'download-token'>;
    const download = await this.services.artifacts.download(principal, artifactId, { probe, baseUrl: this.services.baseUrl(baseUrl) });
    return { url: download.url, expiresAt: download.expiresAt, artifact: toArtifact(download.artifact) };
  }

  @Authorized('licence')
  @Mutation(() => Deployment, { description: "Frees one of the licence's seats: the deployment is removed and its key stops working (audited)." })
  async releaseDeployment(@Ctx() ctx: SubgraphContext, @Arg('id', () => ID) id: string): Promise<Deployment> {
    const licence = licenceOf(ctx);
    return toDeployment(await this.services.deployments.release(licence, id, `licence:${licence.licenceId}`), DeploymentStatusEnum.dead);
  }

  @Authorized('licence')
  @Mutation(() => DeploymentRegistration, { description: "Registers a node on one of the licence's seats (the same host again: its existing seat)." })
  async registerDeployment(@Ctx() ctx: SubgraphContext, @Arg('input') input: RegisterDeploymentInput): Promise<DeploymentRegistration> {
    const { created, deployment, heartbeatIntervalSeconds, nextHeartbeatAt } = await this.services.deployments.register(licenceOf(ctx), input);
    return {
      created,
      deployment: {
        id: deployment.id,
        deploymentKey: deployment.deploymentKey,
        status: DeploymentStatusEnum.alive,
        heartbeatIntervalSeconds,
        nextHeartbeatAt,
        registeredAt: deployment.registeredAt,
      },
    };
  }

  @Authorized('licence')
  @Mutation(() => HeartbeatAck, { description: 'A heartbeat of a registered node (revives a dead one when a seat is free).' })
  async recordDeploymentHeartbeat(@Ctx() ctx: SubgraphContext, @Arg('input') input: DeploymentHeartbeatInput): Promise<HeartbeatAck> {
    const { heartbeatIntervalSeconds, nextHeartbeatAt } = await this.services.deployments.heartbeat(licenceOf(ctx), input);
    return { status: DeploymentStatusEnum.alive, heartbeatIntervalSeconds, nextHeartbeatAt };
  }

  /** The gateway verifies licence keys here, once per operation, and counts them against the rate limit. */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => LicenceAuthentication)
  async authenticateLicenceKey(@Arg('licenceKey') licenceKey: string, @Arg('meter') meter: boolean, @Ctx() ctx: SubgraphContext): Promise<LicenceAuthentication> {
    const { principal, quota } = await this.services.licences.authenticate(licenceKey, { meter, clientAddress: ctx.clientAddress });
    const { kind: _kind, administrator: _administrator, ...licence } = principal;
    return { ...licence, limit: quota.limit, remaining: quota.remaining, resetAt: quota.resetAt };
  }

  /** The gateway verifies download tokens here (the download itself consumes them). */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => DownloadTokenAuthentication)
  async authenticateDownloadToken(@Arg('token') token: string, @Arg('meter') meter: boolean): Promise<DownloadTokenAuthentication> {
    const { principal, quota } = await this.services.artifacts.authenticateToken(token, { meter });
    return { tokenId: principal.tokenId, artifactId: principal.artifactId, licenceId: principal.licenceId, limit: quota.limit, remaining: quota.remaining, resetAt: quota.resetAt };
  }
}

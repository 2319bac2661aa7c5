import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput, forbidden, unauthenticated } from '../../../../lib/errors';
import type { Principal } from '../../../../lib/principal';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { NodePolicy } from '../../kernel/gate';
import { bankingRails, TOGGLES, type SettingsRecord } from '../domain/settings';
import type { NodeServices } from '../services';
import type { Branding } from '../domain/node-service';
import {
  AssistantAnswer,
  NodeActivity,
  NodeBankingRail,
  NodeBranding,
  NodeBrandingInput,
  NodeInfo,
  NodeLicenceState,
  NodeProviderCredential,
  NodeSettings,
  NodeSettingsInput,
  NodeStatus,
} from './types';
import { userRef } from '../../kernel/user-ref';

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function toNodeSettings(s: SettingsRecord): NodeSettings {
  const out = Object.fromEntries(TOGGLES.map((t) => [t.field, s.values[t.key]])) as unknown as NodeSettings;
  return Object.assign(out, { updatedAt: s.updatedAt, updatedBy: s.updatedBy });
}

const toBranding = (b: Branding): NodeBranding =>
  Object.fromEntries(Object.entries(b).map(([k, v]) => [camel(k), v])) as unknown as NodeBranding;

function actorOf(ctx: SubgraphContext): string {
  const p = ctx.principal;
  if (p.kind !== 'node-admin') throw unauthenticated();
  return `admin:${p.username}`;
}

/** The finance subgraphs whose service principal may write to the audit log (the console's writes they carry out). */
export const AUDIT_WRITERS = ['identity', 'ledger', 'commerce', 'compliance', 'banking'];

/**
 * An administrator of this node: a superuser of its admin console. Support staff see what anyone sees
 * of the node (its host, licence and checks are a superuser's), and so does every other product's
 * credential, the prediction API's administrator key included: it administers the prediction API,
 * not this node.
 */
const isNodeAdministrator = (p: Principal) => p.kind === 'node-admin' && p.role !== 'support';

/** Node identity, the settings record, branding, licence, provider credentials, the assistant. */
@Resolver()
export class NodeResolver {
  constructor(private readonly services: NodeServices) {}

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => NodeStatus, { description: 'The state the finance subgraphs gate on (public: the same as /api/v1/node/ and /api/v1/config/ show).' })
  async nodeStatus(): Promise<NodeStatus> {
    const s = await this.services.gate.state();
    return { ...s, modules: Object.entries(s.modules).map(([module, enabled]) => ({ module, enabled })) };
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => NodeInfo, {
    description:
      'Node identity (APP_NAME, APP_VERSION), read-only and maintenance state, licence status. The deployment, the licence\'s claims and source, ' +
      "and the system checks with their messages are for the node's superusers (an admin console session): null for anyone else, other products' administrator keys included.",
  })
  async nodeInfo(@Ctx() ctx: SubgraphContext): Promise<NodeInfo> {
    const { node, registry } = this.services;
    const state = await this.services.gate.state();
    const licence = await node.licence();
    const e = licence.evaluation;
    const { name, version, hostname } = node.identity();
    const status = state.readOnly && e.status === 'valid' ? 'expired' : e.status;
    const expiresAt = e.expiresAt ?? null;
    if (!isNodeAdministrator(ctx.principal)) {
      // anyone: who the node is and whether its licence holds (the registry's last word on it included:
      // a revoked licence gets no more updates); nothing about the deployment, the customer or the host
      const deployment = await registry.deployment();
      return {
        name,
        version,
        hostname: null,
        deploymentId: null,
        readOnly: state.readOnly,
        maintenance: state.maintenance,
        licence: { status, valid: !state.readOnly, checks: state.licenceChecks, expiresAt, source: null, installedAt: null, claims: null, issuer: null, keyId: null, issuedAt: null },
        checks: null,
        deployment: deployment ? { ...deployment, registryUrl: null, deploymentId: null } : null,
      };
    }
    const [checks, deployment] = await Promise.all([node.checks(), registry.deployment()]);
    return {
      name,
      version,
      hostname,
      deploymentId: deployment?.deploymentId ?? null,
      readOnly: state.readOnly,
      maintenance: state.maintenance,
      licence: {
        status,
        valid: !state.readOnly,
        source: licence.source,
        installedAt: licence.installedAt ?? null,
        checks: state.licenceChecks,
        claims: e.claims ?? null,
        issuer: e.issuer ?? null,
        keyId: e.keyId ?? null,
        issuedAt: e.issuedAt ?? null,
        expiresAt,
      } satisfies NodeLicenceState,
      checks: checks.map((c) => ({ id: c.id, level: c.level, message: c.msg, hint: c.hint ?? null })),
      deployment: deployment ?? null,
    };
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => NodeSettings, { description: 'The settings record (feature flags; public, as /api/v1/config/features/).' })
  async nodeSettings(): Promise<NodeSettings> {
    return toNodeSettings(await this.services.node.settings());
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => Boolean, {
    description:
      'Whether the assistant is offered: a provider key is set (ASSISTANT_API_KEY, or assistant/api_key in the admin console). Public: ' +
      'the served OpenAPI document lists POST /api/assistant/ only while it is.',
  })
  assistantConfigured(): Promise<boolean> {
    return this.services.assistant.configured();
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => NodeBranding, { description: 'Organisation branding (public).' })
  async nodeBranding(): Promise<NodeBranding> {
    return toBranding(await this.services.node.branding());
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => [NodeBankingRail], { description: 'The banking rails the enabled modules offer (public).' })
  async nodeBankingRails(): Promise<NodeBankingRail[]> {
    return bankingRails((await this.services.node.settings()).values);
  }

  @Authorized('node-admin')
  @Query(() => [NodeProviderCredential], { description: 'Provider credentials, masked (admin console).' })
  nodeProviderCredentials(): Promise<NodeProviderCredential[]> {
    return this.services.node.providerCredentials();
  }

  @Authorized('service')
  @Query(() => String, {
    nullable: true,
    description:
      "A provider credential's secret from the admin console's encrypted records, for the finance module that owns the provider (its service principal only; null when the console holds none).",
  })
  providerSecret(@Arg('provider') provider: string, @Arg('name') name: string, @Ctx() ctx: SubgraphContext): Promise<string | undefined> {
    const p = ctx.principal;
    if (p.kind !== 'service') throw unauthenticated();
    return this.services.node.providerSecretFor(p.name, provider, name);
  }

  @Authorized('node-admin')
  @Query(() => [NodeActivity], { description: 'Recent administrative activity (admin console).' })
  async nodeActivity(@Arg('first', () => Int, { defaultValue: 20 }) first: number): Promise<NodeActivity[]> {
    const rows = await this.services.node.recentActivity(Math.min(Math.max(first, 1), 100));
    return rows.map(toActivity);
  }

  @Authorized('node-admin')
  @Query(() => [NodeActivity], { description: 'The audit log, newest first (admin console: /admin/audit/); at most 5,000 entries (the console asks for the latest 600, each with its user: the query cost limit).' })
  async nodeAuditLog(@Arg('first', () => Int, { defaultValue: 1000 }) first: number): Promise<NodeActivity[]> {
    const rows = await this.services.node.recentActivity(Math.min(Math.max(first, 1), 5000));
    return rows.map(toActivity);
  }

  /** The console's writes carried out by another finance subgraph (AUDIT_WRITERS) are audited here (gated as they are). */
  @Authorized('service')
  @Mutation(() => Boolean, {
    description:
      'Records an entry of the audit log (the finance subgraphs in AUDIT_WRITERS only, from their audit outbox); `detail` is a JSON object; `id` (the outbox entry) records it once however often it is sent.',
  })
  async recordNodeAudit(
    @Arg('actor') actor: string,
    @Arg('action') action: string,
    @Arg('detail') detail: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('id', () => ID, { nullable: true }) id?: string | null,
  ): Promise<boolean> {
    const p = ctx.principal;
    if (p.kind !== 'service' || !AUDIT_WRITERS.includes(p.name)) throw forbidden('This service may not write to the audit log.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(detail);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badInput('detail is a JSON object.', { detail: ['A JSON object.'] });
    if (!/^[a-z_]+\.[a-z_]+$/.test(action) || !actor || actor.length > 200) throw badInput('An action is <object>.<verb>; an actor is named.');
    if (id && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw badInput('id is a UUID.', { id: ['A UUID.'] });
    await this.services.node.audit(actor, action, parsed as Record<string, unknown>, id ?? undefined);
    return true;
  }

  @Authorized('node-admin')
  @Mutation(() => NodeSettings, { description: 'Changes the settings record (admin console only); effective at once in every process.' })
  async updateNodeSettings(@Arg('input') input: NodeSettingsInput, @Ctx() ctx: SubgraphContext): Promise<NodeSettings> {
    const change = Object.fromEntries(
      Object.entries(input)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => [snake(k).replace('enforce2fa', 'enforce_2fa'), v]),
    );
    return toNodeSettings(await this.services.node.updateSettings(change, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeBranding, { description: 'Changes the branding record (admin console).' })
  async updateNodeBranding(@Arg('input') input: NodeBrandingInput, @Ctx() ctx: SubgraphContext): Promise<NodeBranding> {
    const change = Object.fromEntries(Object.entries(input).map(([k, v]) => [snake(k), v]));
    return toBranding(await this.services.node.updateBranding(change, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeBranding, {
    description:
      'Takes the logo the REST surface streamed to the object store (uploadKey under branding/uploads/, admin console): a PNG, JPEG or WebP ' +
      'by its first bytes, at most 512 KiB; served at /api/v1/config/logo/. Audited.',
  })
  async uploadNodeLogo(@Arg('uploadKey') uploadKey: string, @Ctx() ctx: SubgraphContext): Promise<NodeBranding> {
    return toBranding(await this.services.node.uploadLogo(uploadKey, actorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeLicenceState, { description: 'Installs a licence token and its public key (admin console); only a pair that verifies is installed.' })
  async installNodeLicence(@Arg('token') token: string, @Arg('publicKey') publicKey: string, @Ctx() ctx: SubgraphContext): Promise<NodeLicenceState> {
    const e = await this.services.node.installLicence(token, publicKey, 'admin', actorOf(ctx));
    const installed = await this.services.node.licence();
    return {
      status: e.status,
      valid: true,
      source: installed.source,
      installedAt: installed.installedAt ?? null,
      checks: [],
      claims: e.claims ?? null,
      issuer: e.issuer ?? null,
      keyId: e.keyId ?? null,
      issuedAt: e.issuedAt ?? null,
      expiresAt: e.expiresAt ?? null,
    };
  }

  @Authorized('node-admin')
  @Mutation(() => NodeLicenceState, {
    description:
      'Activates the node with a registry licence key (LIC-XXXX-XXXX-XXXX, admin console), as VENDOR_API_KEY does at start: registers this node ' +
      'with the licence registry (registryUrl, else VENDOR_LICENSE_ENGINE_URL), checks out its signed licence token and installs it (only a licence ' +
      'signed by a vendor key the node trusts), then sends heartbeats with that key.',
  })
  async activateNodeLicence(
    @Arg('licenceKey') licenceKey: string,
    @Arg('registryUrl', () => String, { nullable: true }) registryUrl: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NodeLicenceState> {
    const { licence: e } = await this.services.registry.activate({ url: registryUrl?.trim() || undefined, licenceKey, actor: actorOf(ctx) });
    const installed = await this.services.node.licence();
    return {
      status: e.status,
      valid: true,
      source: installed.source,
      installedAt: installed.installedAt ?? null,
      checks: [],
      claims: e.claims ?? null,
      issuer: e.issuer ?? null,
      keyId: e.keyId ?? null,
      issuedAt: e.issuedAt ?? null,
      expiresAt: e.expiresAt ?? null,
    };
  }

  @Authorized('node-admin')
  @Mutation(() => NodeProviderCredential, { description: 'Stores (or replaces) a provider credential, encrypted at rest.' })
  saveProviderCredential(
    @Arg('provider') provider: string,
    @Arg('name') name: string,
    @Arg('secret') secret: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NodeProviderCredential> {
    return this.services.node.saveProviderCredential({ provider, name, secret }, actorOf(ctx));
  }

  @Authorized('node-admin')
  @Mutation(() => Boolean, { description: 'Deletes a provider credential.' })
  async deleteProviderCredential(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.node.deleteProviderCredential(id, actorOf(ctx));
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => AssistantAnswer, { description: "Sends the user's question to the assistant's language-model provider." })
  askAssistant(@Arg('question') question: string, @Ctx() ctx: SubgraphContext): Promise<AssistantAnswer> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.assistant.ask(question, p.username);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An audit entry; the user it is about (detail.user, a user id by the audit log's convention) by reference. */
function toActivity(r: { id: string | number; at: Date; actor: string; action: string; detail: unknown }): NodeActivity {
  const about = (r.detail as { user?: unknown } | null)?.user;
  return {
    id: String(r.id),
    at: r.at,
    actor: r.actor,
    action: r.action,
    detail: JSON.stringify(r.detail),
    user: typeof about === 'string' && UUID.test(about) ? userRef(about) : null,
  };
}

import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError, intOption, type CliCommand, type CliInput } from '../../../lib/cli';
import { ContainerEngine } from './container-engine';
import { cliActor } from './domain/audit';
import { maskedKey } from './domain/keys';
import { effectiveStatus } from './domain/licences';
import { buildFinanceImages, shipRelease } from './release-images';
import type { LicensingServices } from './services';
import type { LicenceRow, LicenceStatus } from './store/licence-store';
import type { ReleaseStatus } from './store/release-store';

const str = (values: CliInput['values'], name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
const list = (values: CliInput['values'], name: string) =>
  ((values[name] as string[] | undefined) ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
const required = (values: CliInput['values'], name: string, usage: string) => {
  const value = str(values, name);
  if (!value) throw new UsageError(`--${name} is required: ${usage}`);
  return value;
};
const date = (value: string | undefined, name: string) => {
  if (value === undefined) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} must be a date (YYYY-MM-DD) or an ISO time`);
  return d;
};
const json = (file: string) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
};

function describeLicence(l: LicenceRow, nodes: number): string {
  return `${l.id}  ${maskedKey(l.keyPrefix)}  ${effectiveStatus(l.status, l.expiresAt, new Date()).padEnd(9)} maintenance→${l.maintenanceUntil}  nodes=${nodes}${l.expiresAt ? `  expires ${l.expiresAt.toISOString().slice(0, 10)}` : ''}${l.name ? `  ${l.name}` : ''}`;
}

/** The vendor's administration at the machine: `npm run cli -- registry …`. */
export const licensingCommands: CliCommand<LicensingServices>[] = [
  {
    words: ['registry', 'organisations', 'list'],
    usage: '                                       customer organisations',
    async run(ctx) {
      const { catalogue } = await ctx.services();
      const organisations = await catalogue.organisations();
      const users = await catalogue.usersOf(organisations.map((o) => o.id));
      for (const o of organisations) {
        ctx.print(`${o.id}  ${o.slug.padEnd(20)} ${o.name}`);
        for (const u of users.filter((x) => x.organisationId === o.id)) ctx.print(`    ${u.role.padEnd(6)} ${u.name} <${u.email}>`);
      }
    },
  },
  {
    words: ['registry', 'organisations', 'create'],
    usage: '--name <name> [--slug <slug>]',
    options: { name: { type: 'string' }, slug: { type: 'string' } },
    async run(ctx, { values }) {
      const o = await (
        await ctx.services()
      ).catalogue.createOrganisation({ name: required(values, 'name', '--name "Acme Ltd"'), slug: str(values, 'slug') }, cliActor());
      ctx.print(`Created organisation ${o.slug} (${o.id}).`);
    },
  },
  {
    words: ['registry', 'users', 'add'],
    usage: '<organisation> --email <e-mail> --name <name> [--role owner|member]   a workspace user',
    options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError('registry users add <organisation> --email <e-mail> --name <name>');
      const role = str(values, 'role');
      if (role !== undefined && role !== 'owner' && role !== 'member') throw new UsageError('--role must be owner or member');
      const u = await (
        await ctx.services()
      ).catalogue.addWorkspaceUser({ organisation: args[0], email: required(values, 'email', ''), name: required(values, 'name', ''), role }, cliActor());
      ctx.print(`Added ${u.name} <${u.email}> (${u.role}).`);
    },
  },
  {
    words: ['registry', 'products', 'list'],
    usage: '                                            products and their plans',
    async run(ctx) {
      const { catalogue } = await ctx.services();
      const products = await catalogue.products();
      const plans = await catalogue.plansOf(products.map((p) => p.id));
      for (const p of products) {
        ctx.print(`${p.code.padEnd(20)} ${p.name}  (${p.id})`);
        for (const plan of plans.filter((x) => x.productId === p.id)) {
          ctx.print(
            `    ${plan.code.padEnd(14)} max nodes ${plan.maxNodes}, heartbeat every ${plan.heartbeatIntervalSeconds} s (+${plan.heartbeatDriftSeconds} s drift)${plan.entitlements.length ? `, entitlements: ${plan.entitlements.join(', ')}` : ''}`,
          );
        }
      }
    },
  },
  {
    words: ['registry', 'products', 'create'],
    usage: '--code <code> --name <name> --template <manifest-template.json>',
    options: { code: { type: 'string' }, name: { type: 'string' }, template: { type: 'string' } },
    async run(ctx, { values }) {
      const p = await (
        await ctx.services()
      ).catalogue.createProduct(
        {
          code: required(values, 'code', ''),
          name: required(values, 'name', ''),
          manifestTemplate: json(required(values, 'template', '--template <file.json>')),
        },
        cliActor(),
      );
      ctx.print(`Created product ${p.code} (${p.id}).`);
    },
  },
  {
    words: ['registry', 'plans', 'create'],
    usage: '--product <code> --code <code> --name <name> --max-nodes <n> [--heartbeat-interval <s>] [--heartbeat-drift <s>] [--entitlement <e>]…',
    options: {
      product: { type: 'string' },
      code: { type: 'string' },
      name: { type: 'string' },
      'max-nodes': { type: 'string' },
      'heartbeat-interval': { type: 'string' },
      'heartbeat-drift': { type: 'string' },
      entitlement: { type: 'string', multiple: true },
    },
    async run(ctx, { values }) {
      const maxNodes = intOption(values, 'max-nodes');
      if (maxNodes === undefined) throw new UsageError('--max-nodes is required');
      const plan = await (
        await ctx.services()
      ).catalogue.createPlan(
        {
          product: required(values, 'product', ''),
          code: required(values, 'code', ''),
          name: required(values, 'name', ''),
          maxNodes,
          heartbeatIntervalSeconds: intOption(values, 'heartbeat-interval'),
          heartbeatDriftSeconds: intOption(values, 'heartbeat-drift'),
          entitlements: list(values, 'entitlement'),
        },
        cliActor(),
      );
      ctx.print(`Created plan ${plan.code} (${plan.id}): ${plan.maxNodes} nodes.`);
    },
  },
  {
    words: ['registry', 'licences', 'list'],
    usage: '[--organisation <slug>] [--product <code>] [--status Active|Suspended|Revoked|Expired]',
    options: { organisation: { type: 'string' }, product: { type: 'string' }, status: { type: 'string' } },
    async run(ctx, { values }) {
      const { licences, catalogue } = await ctx.services();
      const organisation = str(values, 'organisation');
      const product = str(values, 'product');
      const rows = await licences.list({
        organisationId: organisation ? (await catalogue.organisation(organisation)).id : null,
        productId: product ? (await catalogue.product(product)).id : null,
        status: (str(values, 'status') as LicenceStatus | undefined) ?? null,
      });
      const nodes = await licences.nodesInUse(rows.map((r) => r.id));
      if (!rows.length) ctx.print('No licences.');
      for (const l of rows) ctx.print(describeLicence(l, nodes.get(l.id) ?? 0));
    },
  },
  {
    words: ['registry', 'licences', 'create'],
    usage: '--organisation <slug> --plan <product>/<plan> [--maintenance-until YYYY-MM-DD] [--expires YYYY-MM-DD] [--name <label>]',
    options: {
      organisation: { type: 'string' },
      plan: { type: 'string' },
      'maintenance-until': { type: 'string' },
      expires: { type: 'string' },
      name: { type: 'string' },
    },
    async run(ctx, { values }) {
      const { key, licence } = await (
        await ctx.services()
      ).licences.create(
        {
          organisation: required(values, 'organisation', ''),
          plan: required(values, 'plan', 'e.g. finance-node/standard'),
          maintenanceUntil: str(values, 'maintenance-until'),
          expiresAt: date(str(values, 'expires'), 'expires'),
          name: str(values, 'name'),
        },
        cliActor(),
      );
      ctx.print(`Created licence ${licence.id}, maintenance until ${licence.maintenanceUntil}. Its key:\n${key}`);
    },
  },
  {
    words: ['registry', 'licences', 'show'],
    usage: '<licence> [--reveal]                        --reveal prints the full key',
    options: { reveal: { type: 'boolean' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError('registry licences show <licence id | LIC-ABCD>');
      const { licences, deployments } = await ctx.services();
      const l = await licences.find(args[0]);
      ctx.print(describeLicence(l, (await licences.nodesInUse([l.id])).get(l.id) ?? 0));
      if (values.reveal) ctx.print(`key: ${licences.revealKey(l)}`);
      for (const d of await deployments.list({ licenceIds: [l.id] })) {
        ctx.print(
          `    ${deployments.statusOf(d).padEnd(5)} ${d.hostname} ${d.ipAddress} v${d.currentVersion}  last heartbeat ${d.lastHeartbeatAt.toISOString()}${d.reportedStatus ? ` (${d.reportedStatus})` : ''}`,
        );
      }
    },
  },
  ...(['suspend', 'reinstate', 'revoke'] as const).map((verb): CliCommand<LicensingServices> => ({
    words: ['registry', 'licences', verb],
    usage: '<licence> [--reason <text>]',
    options: { reason: { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError(`registry licences ${verb} <licence id | LIC-ABCD>`);
      const l = await (await ctx.services()).licences[verb](args[0], cliActor(), str(values, 'reason'));
      ctx.print(`${maskedKey(l.keyPrefix)} is now ${l.status}.`);
    },
  })),
  {
    words: ['registry', 'licences', 'extend'],
    usage: '<licence> --until YYYY-MM-DD                  extends (or sets) the maintenance end',
    options: { until: { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError('registry licences extend <licence> --until YYYY-MM-DD');
      const l = await (await ctx.services()).licences.extendMaintenance(args[0], required(values, 'until', 'YYYY-MM-DD'), cliActor());
      ctx.print(`${maskedKey(l.keyPrefix)}: maintenance until ${l.maintenanceUntil}.`);
    },
  },
  {
    words: ['registry', 'releases', 'list'],
    usage: '[--product <code>] [--channel <channel>] [--status draft|published|yanked]',
    options: { product: { type: 'string' }, channel: { type: 'string' }, status: { type: 'string', multiple: true } },
    async run(ctx, { values }) {
      const { releases, catalogue } = await ctx.services();
      const rows = await releases.list({
        product: str(values, 'product'),
        channel: str(values, 'channel'),
        statuses: list(values, 'status') as ReleaseStatus[],
      });
      const artifacts = await releases.artifactsOf(rows.map((r) => r.id));
      const products = new Map((await catalogue.products()).map((p) => [p.id, p.code]));
      for (const r of rows) {
        const date = (r.backdatedTo ?? r.publishedAt)?.toISOString().slice(0, 10) ?? '-';
        ctx.print(`${r.id}  ${products.get(r.productId)}@${r.version.padEnd(12)} ${r.channel.padEnd(6)} ${r.status.padEnd(9)} ${date}`);
        for (const a of artifacts.filter((x) => x.releaseId === r.id)) {
          ctx.print(`    ${a.id}  ${a.component.padEnd(9)} ${a.status.padEnd(8)} ${a.filename}  ${a.size ?? '-'} bytes  sha256 ${a.sha256 ?? '-'}`);
        }
      }
    },
  },
  {
    words: ['registry', 'releases', 'create'],
    usage:
      '--product <code> --version <semver> --channel stable|rc|beta|alpha|dev [--changelog <text> | --changelog-file <f>] [--backdated-to <date>] [--template <f.json>]',
    options: {
      product: { type: 'string' },
      version: { type: 'string' },
      channel: { type: 'string' },
      changelog: { type: 'string' },
      'changelog-file': { type: 'string' },
      'backdated-to': { type: 'string' },
      template: { type: 'string' },
    },
    async run(ctx, { values }) {
      const changelogFile = str(values, 'changelog-file');
      const template = str(values, 'template');
      const r = await (
        await ctx.services()
      ).releases.create(
        {
          product: required(values, 'product', ''),
          version: required(values, 'version', ''),
          channel: required(values, 'channel', ''),
          changelog: changelogFile ? readFileSync(changelogFile, 'utf8') : str(values, 'changelog'),
          backdatedTo: date(str(values, 'backdated-to'), 'backdated-to'),
          manifestTemplate: template ? json(template) : undefined,
        },
        cliActor(),
      );
      ctx.print(`Created draft ${r.version} on ${r.channel} (${r.id}). Upload its artifacts, then publish it.`);
    },
  },
  {
    words: ['registry', 'releases', 'publish'],
    usage: '<release>                                  id or <product>@<version>',
    async run(ctx, { args }) {
      if (!args[0]) throw new UsageError('registry releases publish <release id | product@version>');
      const r = await (await ctx.services()).releases.publish(args[0], cliActor());
      ctx.print(`Published ${r.version} on ${r.channel}.`);
    },
  },
  {
    words: ['registry', 'releases', 'yank'],
    usage: '<release> [--reason <text>]',
    options: { reason: { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError('registry releases yank <release id | product@version>');
      const r = await (await ctx.services()).releases.yank(args[0], cliActor(), str(values, 'reason'));
      ctx.print(`Yanked ${r.version}.`);
    },
  },
  {
    words: ['registry', 'releases', 'ship'],
    usage:
      '--product <code> --version <semver> --channel <channel> [--image <component>=<image> …] [--build] [--draft] [--changelog <text>]   real images: saved, uploaded, published',
    options: {
      product: { type: 'string' },
      version: { type: 'string' },
      channel: { type: 'string' },
      changelog: { type: 'string' },
      'backdated-to': { type: 'string' },
      image: { type: 'string', multiple: true },
      build: { type: 'boolean' },
      draft: { type: 'boolean' },
    },
    async run(ctx, { values }) {
      const images: Record<string, string> = {};
      for (const pair of list(values, 'image')) {
        const eq = pair.indexOf('=');
        if (eq < 1) throw new UsageError('--image takes <component>=<image>, e.g. backend=localhost/finance-node/backend:0.1.0');
        images[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const engine = await ContainerEngine.detect();
      // images built here carry this registry's key (the node they make trusts its licences only)
      if (values.build === true) await buildFinanceImages(engine, (await (await ctx.services()).signing.publicKey()).publicKey);
      const { release, artifacts } = await shipRelease(
        await ctx.services(),
        engine,
        {
          product: required(values, 'product', 'e.g. finance-node'),
          version: required(values, 'version', 'e.g. 1.3.0'),
          channel: required(values, 'channel', 'stable, rc, beta, alpha or dev'),
          changelog: str(values, 'changelog'),
          backdatedTo: date(str(values, 'backdated-to'), 'backdated-to'),
          images,
          draft: values.draft === true,
        },
        cliActor(),
        (line) => ctx.print(line),
      );
      for (const a of artifacts) ctx.print(`  ${a.component}: ${a.filename}, ${a.size} bytes, sha256 ${a.sha256}, image ${a.image} ${a.imageId}`);
      ctx.print(`${release.status === 'published' ? 'Published' : 'Prepared draft'} ${release.version} on ${release.channel} (${release.id}).`);
    },
  },
  {
    words: ['registry', 'artifacts', 'upload'],
    usage: '<release> <file.docker.tar.gz> --component <name> [--image <repo:tag>] [--media-type <type>]   streamed, SHA-256 computed',
    options: { component: { type: 'string' }, image: { type: 'string' }, 'media-type': { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0] || !args[1]) throw new UsageError('registry artifacts upload <release> <file> --component <name>');
      const size = statSync(args[1]).size;
      const a = await (
        await ctx.services()
      ).artifacts.upload(
        {
          release: args[0],
          component: required(values, 'component', 'e.g. backend'),
          filename: basename(args[1]),
          image: str(values, 'image'),
          mediaType: str(values, 'media-type'),
        },
        createReadStream(args[1]),
        { size },
        cliActor(),
      );
      ctx.print(
        `Uploaded ${a.filename} as ${a.component} (${a.id}): ${a.size} bytes, sha256 ${a.sha256}${a.imageId ? `, image ${a.image} ${a.imageId}` : ''}.`,
      );
    },
  },
  {
    words: ['registry', 'deployments', 'list'],
    usage: '[--licence <licence>]',
    options: { licence: { type: 'string' } },
    async run(ctx, { values }) {
      const { deployments, licences } = await ctx.services();
      const licence = str(values, 'licence');
      const rows = await deployments.list({ licenceIds: licence ? [(await licences.find(licence)).id] : null });
      if (!rows.length) ctx.print('No deployments.');
      for (const d of rows) {
        ctx.print(
          `${d.id}  ${deployments.statusOf(d).padEnd(5)} ${d.hostname} ${d.ipAddress} v${d.currentVersion}  licence ${d.licenceId}  last heartbeat ${d.lastHeartbeatAt.toISOString()}`,
        );
      }
    },
  },
  {
    words: ['registry', 'deployments', 'remove'],
    usage: '<deployment id>                         frees its seat',
    async run(ctx, { args }) {
      if (!args[0]) throw new UsageError('registry deployments remove <deployment id>');
      const d = await (await ctx.services()).deployments.deregister(args[0], cliActor());
      ctx.print(`Removed ${d.hostname}.`);
    },
  },
  {
    words: ['registry', 'audit'],
    usage: '[--licence <licence>] [--organisation <slug>] [--action <action>]… [--limit <n>]',
    options: { licence: { type: 'string' }, organisation: { type: 'string' }, action: { type: 'string', multiple: true }, limit: { type: 'string' } },
    async run(ctx, { values }) {
      const { audit, licences, catalogue } = await ctx.services();
      const licence = str(values, 'licence');
      const organisation = str(values, 'organisation');
      const actions = list(values, 'action');
      const rows = await audit.list({
        licenceId: licence ? (await licences.find(licence)).id : null,
        organisationId: organisation ? (await catalogue.organisation(organisation)).id : null,
        actions: actions.length ? actions : null,
        first: intOption(values, 'limit') ?? 50,
      });
      for (const e of rows)
        ctx.print(`${e.at.toISOString()}  ${e.action.padEnd(30)} ${e.actor.padEnd(30)} ${e.subjectType}:${e.subjectId}  ${JSON.stringify(e.details)}`);
    },
  },
  {
    words: ['registry', 'upkeep'],
    usage: '                                               cull dead deployments, record expiries, purge spent tokens now',
    async run(ctx) {
      const r = await (await ctx.services()).upkeep();
      ctx.print(`${r.dead} deployment(s) dead, ${r.expired} licence(s) expired, ${r.purgedTokens} token(s) purged.`);
    },
  },
];

import { readFileSync } from 'node:fs';
import { UsageError, type CliCommand } from '../../../lib/cli';
import { CHECK_CATALOGUE, formatChecks } from './domain/checks';
import type { NodeServices } from './services';

const fileOrValue = (v: string) => (v.startsWith('@') ? readFileSync(v.slice(1), 'utf8') : v);

/** The node's management commands (Django's `check`, plus licence installation and registry activation). */
export const nodeCommands: CliCommand<NodeServices>[] = [
  {
    words: ['finance:check'],
    usage: '[--list]                       system checks (app.E001 …), Django-style; exits 1 on errors',
    options: { list: { type: 'boolean' } },
    async run(ctx, { values }) {
      if (values.list) {
        for (const [id, text] of Object.entries(CHECK_CATALOGUE)) ctx.print(`${id}  ${text}`);
        return 0;
      }
      const { node } = await ctx.services();
      const all = await node.allChecks();
      ctx.print(formatChecks(all, ctx.config.SILENCED_SYSTEM_CHECKS));
      return all.some((c) => c.level === 'ERROR' && !ctx.config.SILENCED_SYSTEM_CHECKS.includes(c.id)) ? 1 : 0;
    },
  },
  {
    words: ['finance:install-licence'],
    usage: '--token <jwt|@file> --public-key <key|@file>   installs a licence that verifies (no restart needed)',
    options: { token: { type: 'string' }, 'public-key': { type: 'string' } },
    async run(ctx, { values }) {
      if (typeof values.token !== 'string' || typeof values['public-key'] !== 'string') throw new UsageError('--token and --public-key are required');
      const { node } = await ctx.services();
      const e = await node.installLicence(fileOrValue(values.token).trim(), fileOrValue(values['public-key']).trim(), 'cli', 'finance:install-licence');
      ctx.print(
        `Licence installed: ${e.claims?.licenceId} for ${e.claims?.organisationName} (plan ${e.claims?.plan}), token valid until ${e.expiresAt?.toISOString() ?? 'no expiry'}. The node is in normal mode.`,
      );
    },
  },
  {
    words: ['finance:activate'],
    usage: '[--url <registry>] [--licence-key <LIC-…>]   registers with the licence registry, installs its licence',
    options: { url: { type: 'string' }, 'licence-key': { type: 'string' } },
    async run(ctx, { values }) {
      const { registry } = await ctx.services();
      const { registration, licence } = await registry.activate({
        url: values.url as string | undefined,
        licenceKey: values['licence-key'] as string | undefined,
      });
      ctx.print(
        `Registered as deployment ${registration.id} (heartbeat every ${registration.heartbeatIntervalSeconds} s). ` +
          `Licence ${licence.claims?.licenceId} installed, token valid until ${licence.expiresAt?.toISOString() ?? 'no expiry'}.\n` +
          `Deployment key (kept in the node's tables; for your environment: VENDOR_DEPLOYMENT_ID): ${registration.deploymentKey}`,
      );
    },
  },
];

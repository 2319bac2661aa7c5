import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { UsageError, intOption, type CliCommand } from '../../../lib/cli';
import type { Config } from '../../../lib/config';
import { DomainError } from '../../../lib/errors';
import { outboxDir } from '../../../lib/mailer';
import { effectiveLimit } from './domain/plans';
import type { AccessServices } from './services';
import type { ApplicationRow, ApplicationStatus } from './store/application-store';

const STATUSES: ApplicationStatus[] = ['unconfirmed', 'pending', 'approved', 'rejected'];

const mailDestination = (config: Config) => (config.SMTP_URL ? 'by SMTP' : `outbox ${outboxDir(config)}`);
const decidedBy = () => `cli (${userInfo().username})`;

function describeApplication(r: ApplicationRow): string {
  const decision =
    r.status === 'approved' ? ` plan=${r.planCode} key=${r.keyPrefix}…` : r.status === 'rejected' && r.rejectionReason ? ` reason="${r.rejectionReason}"` : '';
  const usage = r.usage.replace(/\s+/g, ' ');
  return `${r.id}  ${r.status.padEnd(11)} ${r.source.padEnd(5)} ${r.createdAt.toISOString().slice(0, 16)}  ${r.name} <${r.email}>${decision}\n    ${usage.length > 100 ? `${usage.slice(0, 99)}…` : usage}`;
}

/** Keys and access applications, for administrators at the machine. */
export const accessCommands: CliCommand<AccessServices>[] = [
  {
    words: ['keys', 'list'],
    usage: '[--all]                                   API keys (--all: with revoked ones)',
    options: { all: { type: 'boolean' } },
    async run(ctx, { values }) {
      const { apiKeys } = await ctx.services();
      const rows = await apiKeys.list({ includeRevoked: values.all === true });
      const usage = await apiKeys.usageToday(rows.map((r) => r.id));
      for (const r of rows) {
        const limit = effectiveLimit(r.planCode, r.dailyLimit) ?? 'unlimited';
        ctx.print(
          `${r.prefix}  ${r.role.padEnd(6)} ${r.planCode.padEnd(10)} limit=${limit} today=${usage.get(r.id) ?? 0}  ${r.revokedAt ? 'REVOKED ' : ''}${r.name}${r.email ? ` <${r.email}>` : ''}`,
        );
      }
    },
  },
  {
    words: ['keys', 'create'],
    usage: '--name <name> [--plan free|pro|enterprise] [--daily-limit <n>] [--email <e>] [--admin]',
    options: { name: { type: 'string' }, plan: { type: 'string' }, 'daily-limit': { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' } },
    async run(ctx, { values }) {
      if (!values.name) throw new UsageError('--name is required');
      const { key, record } = await (
        await ctx.services()
      ).apiKeys.create({
        name: values.name as string,
        plan: (values.plan as string | undefined) ?? 'free',
        role: values.admin ? 'admin' : 'client',
        dailyLimit: intOption(values, 'daily-limit'),
        email: values.email as string | undefined,
      });
      ctx.print(`Created ${record.role} key ${record.prefix} on plan ${record.planCode}. The key (shown once):\n${key}`);
    },
  },
  {
    words: ['keys', 'revoke'],
    usage: '<id|prefix>',
    async run(ctx, { args }) {
      if (!args[0]) throw new UsageError('keys revoke <id|prefix>');
      const row = await (await ctx.services()).apiKeys.revoke(args[0]);
      ctx.print(`Revoked ${row.prefix} (${row.name}).`);
    },
  },
  {
    words: ['keys', 'plan'],
    usage: '<id|prefix> <free|pro|enterprise> [--daily-limit <n>]',
    options: { 'daily-limit': { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0] || !args[1]) throw new UsageError('keys plan <id|prefix> <plan> [--daily-limit <n>]');
      const row = await (await ctx.services()).apiKeys.changePlan(args[0], args[1], intOption(values, 'daily-limit'));
      ctx.print(`${row.prefix} is now on plan ${row.planCode}${row.dailyLimit ? ` (${row.dailyLimit}/day)` : ''}.`);
    },
  },
  {
    words: ['applications', 'list'],
    usage: '[--status unconfirmed|pending|approved|rejected]',
    options: { status: { type: 'string' } },
    async run(ctx, { values }) {
      const status = values.status as ApplicationStatus | undefined;
      if (status !== undefined && !STATUSES.includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      const rows = await (await ctx.services()).applications.list({ status: status ?? null, first: 200 });
      if (!rows.length) ctx.print('No applications.');
      for (const r of rows) ctx.print(describeApplication(r));
    },
  },
  {
    words: ['applications', 'approve'],
    usage: '<id> --plan free|pro|enterprise [--daily-limit <n>]   issues the key and mails it',
    options: { plan: { type: 'string' }, 'daily-limit': { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0] || !values.plan) throw new UsageError('applications approve <id> --plan free|pro|enterprise [--daily-limit <n>]');
      const row = await (
        await ctx.services()
      ).applications.approve(args[0], { plan: values.plan as string, dailyLimit: intOption(values, 'daily-limit'), decidedBy: decidedBy() });
      ctx.print(`Approved ${row.id}: key ${row.keyPrefix}… on plan ${row.planCode} sent to ${row.email} (${mailDestination(ctx.config)}).`);
    },
  },
  {
    words: ['applications', 'reject'],
    usage: '<id> [--reason "<text>"]                                 mails the applicant',
    options: { reason: { type: 'string' } },
    async run(ctx, { args, values }) {
      if (!args[0]) throw new UsageError('applications reject <id> [--reason "<text>"]');
      const row = await (await ctx.services()).applications.reject(args[0], { reason: values.reason as string | undefined, decidedBy: decidedBy() });
      ctx.print(`Rejected ${row.id}; ${row.email} was told (${mailDestination(ctx.config)}).`);
    },
  },
  {
    words: ['applications', 'import'],
    usage: '<file.eml> [<file.eml> ...]                             e-mails with subject "API Access Request"',
    async run(ctx, { args }) {
      if (!args.length) throw new UsageError('applications import <file.eml> [<file.eml> ...]');
      const { applications } = await ctx.services();
      let failed = 0;
      for (const file of args) {
        try {
          const { application: a, created } = await applications.submitEmail(readFileSync(file), { kind: 'trusted' });
          ctx.print(
            `${file}: ${created ? 'new application' : 'already known as'} ${a.id} (${a.status}) from ${a.name} <${a.email}>` +
              (a.status === 'unconfirmed' ? '; a link to confirm the address was mailed to it' : ''),
          );
        } catch (err) {
          if (!(err instanceof DomainError) && (err as NodeJS.ErrnoException).code === undefined) throw err;
          failed++;
          process.stderr.write(`${file}: ${(err as Error).message}\n`);
        }
      }
      return failed ? 1 : 0;
    },
  },
];

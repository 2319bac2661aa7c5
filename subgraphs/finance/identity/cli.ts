import { UsageError, type CliCommand } from '../../../lib/cli';
import type { IdentityServices } from './services';

/** Django's `createsuperuser`: from options, else SUPERUSER_USERNAME / SUPERUSER_PASSWORD / SUPERUSER_EMAIL. */
export const identityCommands: CliCommand<IdentityServices>[] = [
  {
    words: ['finance:createsuperuser'],
    usage: '--username <name> [--email <e>] (password: SUPERUSER_PASSWORD)   an admin console account (an existing name gets the new password)',
    options: { username: { type: 'string' }, email: { type: 'string' } },
    async run(ctx, { values }) {
      const username = (values.username as string | undefined) ?? ctx.config.SUPERUSER_USERNAME;
      const password = ctx.config.SUPERUSER_PASSWORD;
      if (!username) throw new UsageError('--username (or SUPERUSER_USERNAME) is required');
      if (!password) throw new UsageError('the password comes from SUPERUSER_PASSWORD (never from the command line, which other users can see)');
      const { identity } = await ctx.services();
      const user = await identity.createUser(
        { username, password, email: (values.email as string | undefined) ?? ctx.config.SUPERUSER_EMAIL, superuser: true },
        { replace: true },
      );
      ctx.print(`Superuser "${user.username}" ready: sign in at /admin/.`);
    },
  },
  {
    words: ['finance:createuser'],
    usage: '--username <name> --email <e> (password: USER_PASSWORD)   a user of the node (not an administrator), e-mail counted as verified',
    options: { username: { type: 'string' }, email: { type: 'string' } },
    async run(ctx, { values }) {
      const username = values.username as string | undefined;
      const email = values.email as string | undefined;
      // like SUPERUSER_PASSWORD: never on the command line, which other users of the machine can see
      const password = process.env.USER_PASSWORD;
      if (!username || !email) throw new UsageError('--username and --email are required');
      if (!password) throw new UsageError('the password comes from USER_PASSWORD (never from the command line, which other users can see)');
      const { identity } = await ctx.services();
      const user = await identity.createUser({ username, password, email, superuser: false });
      ctx.print(`User "${user.username}" created: they sign in at POST /api/login/ (or the web client).`);
    },
  },
];

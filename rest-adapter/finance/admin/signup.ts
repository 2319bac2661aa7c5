import { z } from 'zod';
import { html } from '../../../lib/html';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { csrfInput, financeError, financePage, table, when } from './layout';
import { route, type ResultOf } from '../operation';
import type { NodeInviteFieldsFragment } from '../operations/types.generated';

/**
 * How people join the node, at /admin/identity/signup/ (superusers): sign-up open to anyone or by
 * invitation only, and the invite codes (each admits one sign-up; shown once, kept as a hash).
 */

/** An invite as the list and the page of a new invite show it (their operations' shared fragment). */
type InviteRow = NodeInviteFieldsFragment;

export const SIGNUP_PATH = '/admin/identity/signup/';
const MODES = { open: 'Open: anyone signs up', invite_only: 'Invite-only: with an invite code' } as const;
const breadcrumbs = [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Sign-up and invites' }];
const back = { href: SIGNUP_PATH, label: 'Back to Sign-up and invites' };

function signupPage(data: ResultOf<'AdminSignup'>, input: AnyRouteInput): Reply {
  const saved = (input.query as { saved?: string }).saved;
  const mode = data.nodeSignupMode as keyof typeof MODES;
  const now = Date.now();
  const state = (i: InviteRow) => (i.usedAt ? `used ${when(i.usedAt)}` : i.expiresAt && Date.parse(i.expiresAt) < now ? 'expired' : 'unused');
  return financePage(
    input,
    {
      title: 'Sign-up and invites',
      banners: saved === 'mode' ? [{ level: 'ok', text: `Saved. ${MODES[mode] ?? mode}.` }] : [],
      breadcrumbs,
      back: { href: '/admin/identity/', label: 'Back to Identity' },
    },
    html`<div class="module">
        <h2>How people join</h2>
        <form class="aligned body" method="post" action="${SIGNUP_PATH}">
          ${csrfInput(input.csrfToken)}
          <div class="row">
            <label class="name" for="id_mode">Sign-up</label>
            <select name="mode" id="id_mode">
              ${Object.entries(MODES).map(([value, label]) => html`<option value="${value}" ${value === mode ? 'selected' : ''}>${label}</option>`)}
            </select>
          </div>
          <div class="submit-row"><button class="default" type="submit">Save</button></div>
        </form>
        <p class="help body" id="signup-mode">Now: ${MODES[mode] ?? mode}.</p>
      </div>
      <div class="module">
        <h2>Invite someone</h2>
        <form class="aligned body" method="post" action="${SIGNUP_PATH}invites/">
          ${csrfInput(input.csrfToken)}
          <div class="row">
            <label class="name" for="id_note">Note (optional)</label>
            <input type="text" name="note" id="id_note" maxlength="200" autocomplete="off" />
          </div>
          <div class="row">
            <label class="name" for="id_expires_in_days">Expires after (days, optional)</label>
            <input type="text" name="expires_in_days" id="id_expires_in_days" inputmode="numeric" pattern="[0-9]*" maxlength="3" />
          </div>
          <div class="submit-row"><button class="default" type="submit">Create invite</button></div>
        </form>
        <p class="help body">The code is shown once; each code admits one sign-up.</p>
      </div>
      ${table(
        'Invites',
        ['Created', 'Code ends in', 'Note', 'By', 'Expires', 'State'],
        data.nodeInvites.map((i) => [when(i.createdAt), html`<code>…${i.hint}</code>`, i.note || '—', i.createdBy, when(i.expiresAt), state(i)]),
        'No invites yet.',
      )}`,
  );
}

function inviteCreatedPage(data: ResultOf<'AdminCreateInvite'>, input: AnyRouteInput): Reply {
  const { code, invite } = data.createNodeInvite;
  // a mutation names no signed-in user for the header: the invite's creator is the one signed in
  if (input.req.res) input.req.res.locals.adminUser = invite.createdBy;
  return financePage(
    input,
    {
      title: 'Invite created',
      status: 201,
      banners: [{ level: 'ok', text: 'The invite was created. Copy the code now: it is not shown again.' }],
      breadcrumbs: [breadcrumbs[0], { label: 'Sign-up and invites', href: SIGNUP_PATH }, { label: 'Invite created' }],
      back,
    },
    html`<div class="module">
      <h2>Invite code</h2>
      <div class="body">
        <p><code id="invite-code" class="secret">${code}</code></p>
        <p class="help">
          ${invite.note ? `Note: ${invite.note}. ` : ''}${invite.expiresAt ? `Valid until ${when(invite.expiresAt)}.` : 'Does not expire.'} The new user enters
          it on the sign-up page.
        </p>
      </div>
    </div>`,
  );
}

const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const signupAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: SIGNUP_PATH,
    summary: 'Admin console: sign-up and invites',
    description:
      'How people join (open or invite-only), the form to create an invite code, and the invites (newest first; codes by their last four characters).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSignup',
    query: z.object({ saved: z.enum(['mode']).optional() }),
    response: { description: 'The page (HTML)', contentType: 'text/html' },
    respond: signupPage,
    respondError: financeError('Sign-up and invites'),
  }),
  route({
    method: 'POST',
    path: SIGNUP_PATH,
    summary: 'Admin console: set how people join',
    description:
      'Form field `mode` (`open` or `invite_only`) and the CSRF token. Invite-only: a sign-up without a valid invite code is refused (403 `signup_closed`).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSetSignupMode',
    consumes: 'form',
    csrf: true,
    body: z.object({ mode: z.enum(['open', 'invite_only']) }).passthrough(),
    variables: ({ body }: { body: { mode: string } }) => ({ mode: body.mode }),
    response: { status: 302, description: 'Saved: back to the page' },
    errors: [400],
    respond: () => ({ kind: 'redirect', status: 302, location: `${SIGNUP_PATH}?saved=mode` }),
    respondError: financeError('Sign-up and invites', { back }),
  }),
  route({
    method: 'POST',
    path: `${SIGNUP_PATH}invites/`,
    summary: 'Admin console: create an invite code',
    description:
      'Form fields `note` (optional, at most 200 characters), `expires_in_days` (optional, 1 to 365) and the CSRF token → the page with the new code, shown this once (only its SHA-256 hash is kept).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminCreateInvite',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => {
      const days = typeof body.expires_in_days === 'string' ? body.expires_in_days.trim() : '';
      return { note: typeof body.note === 'string' ? body.note : '', expiresInDays: days === '' ? null : /^\d{1,3}$/.test(days) ? Number(days) : -1 };
    },
    response: { status: 201, description: 'The new code (HTML)', contentType: 'text/html' },
    errors: [400],
    respond: inviteCreatedPage,
    respondError: financeError('Sign-up and invites', { back }),
  }),
];

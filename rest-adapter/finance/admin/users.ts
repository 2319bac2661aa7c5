import { z } from 'zod';
import { html } from '../../../lib/html';
import { listQueryWith, listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { csrfInput, financeError, financePage, table, when, yesNo } from './layout';
import { route, type ResultOf } from '../operation';

/** The console's users: a list with search, filters, paging and CSV export (the console kit's list). */

/** A user as the list shows them (AdminUsers); a user's page has the same fields and more (AdminUser). */
type UserRow = ResultOf<'AdminUsers'>['nodeUsers'][number];

const yes = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;
const is = (flag: boolean, value: string) => flag === (value === 'yes');
const phoneOf = (u: UserRow) => (u.phone ? `${u.phone}${u.phoneVerified ? '' : ' (not verified)'}` : '—');

export const USERS_LIST: ListSpec<UserRow> = {
  title: 'Users',
  path: '/admin/identity/user/',
  filename: 'users',
  columns: [
    { label: 'Username', cell: (u) => html`<a href="/admin/identity/user/${u.id}/">${u.username}</a>`, csv: (u) => u.username },
    { label: 'E-mail', cell: (u) => u.email },
    { label: 'Verified', cell: (u) => yesNo(u.emailVerified), csv: (u) => u.emailVerified },
    { label: 'Phone', cell: phoneOf, csv: (u) => u.phone },
    { label: 'KYC', cell: (u) => u.kycLevel.toLowerCase() },
    { label: 'Superuser', cell: (u) => yesNo(u.isSuperuser), csv: (u) => u.isSuperuser },
    { label: 'Active', cell: (u) => yesNo(u.isActive), csv: (u) => u.isActive },
    { label: '2FA', cell: (u) => yesNo(u.twoFactorEnabled), csv: (u) => u.twoFactorEnabled },
    { label: 'Joined', cell: (u) => when(u.dateJoined), csv: (u) => u.dateJoined },
    { label: 'Last login', cell: (u) => when(u.lastLogin), csv: (u) => u.lastLogin },
    { label: 'Id', cell: (u) => html`<code>${u.id}</code>`, csv: (u) => u.id },
  ],
  searchable: (u) => [u.username, u.email, u.phone, u.id],
  filters: [
    { name: 'active', label: 'Active', options: yes, matches: (u, v) => is(u.isActive, v) },
    { name: 'superuser', label: 'Superuser', options: yes, matches: (u, v) => is(u.isSuperuser, v) },
    { name: 'verified', label: 'E-mail verified', options: yes, matches: (u, v) => is(u.emailVerified, v) },
    {
      name: 'kyc',
      label: 'KYC level',
      options: ['none', 'basic', 'enhanced'].map((l) => ({ value: l, label: l })),
      matches: (u, v) => u.kycLevel.toLowerCase() === v,
    },
  ],
};

function usersPage(data: ResultOf<'AdminUsers'>, input: AnyRouteInput): Reply {
  const view = listView(USERS_LIST, data.nodeUsers, input);
  if (view.kind === 'file') return view.reply;
  const added = (input.query as { saved?: string }).saved ? [{ level: 'ok' as const, text: 'The user was added successfully.' }] : [];
  return financePage(
    input,
    {
      title: 'Users',
      breadcrumbs: [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Users' }],
      back: { href: '/admin/identity/', label: 'Back to Identity' },
      banners: added,
    },
    html`<p><a class="addlink" href="${USER_PATH}add/">+ Add user</a></p>
      ${view.body}`,
  );
}

const KYC_LEVELS = { none: 'NONE', basic: 'BASIC', enhanced: 'ENHANCED' } as const;

export const userAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/identity/user/',
    summary: 'Admin console: users',
    description: 'Search (`q`: user name, e-mail, phone, id), filters, 50 a page; `?format=csv` exports the filtered list.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUsers',
    query: listQueryWith({ active: ['yes', 'no'], superuser: ['yes', 'no'], verified: ['yes', 'no'], kyc: ['none', 'basic', 'enhanced'] }),
    response: { description: 'List (HTML), or CSV with ?format=csv', contentType: 'text/html' },
    respond: usersPage,
    respondError: financeError('Users'),
  }),
];

const USER_PATH = '/admin/identity/user/';
const LEVELS = ['none', 'basic', 'enhanced'] as const;

/** A user's page: what the node knows of them, freeze / unfreeze, and their KYC level. */
function userPage(data: ResultOf<'AdminUser'>, input: AnyRouteInput): Reply {
  const u = data.nodeUserDetail;
  const level = u.kycLevel.toLowerCase();
  const flag = (input.query as { saved?: string }).saved;
  // a user just added says so (not "changed")
  const saved = flag
    ? [
        {
          level: 'ok' as const,
          text: flag === 'added' ? `The user "${u.username}" was added successfully.` : `The user "${u.username}" was changed successfully.`,
        },
      ]
    : [];
  const facts: [string, unknown][] = [
    ['Username', u.username],
    ['E-mail', u.email || '—'],
    ['E-mail verified', yesNo(u.emailVerified)],
    ['Phone', phoneOf(u)],
    ['KYC level', level],
    ['Superuser', yesNo(u.isSuperuser)],
    ['Support staff', yesNo(u.isStaff === true)],
    ['Active', u.isActive ? yesNo(true) : html`<strong class="off">frozen</strong>`],
    ['2FA', yesNo(u.twoFactorEnabled)],
    ['Joined', when(u.dateJoined)],
    ['Last login', when(u.lastLogin)],
    ['Id', html`<code>${u.id}</code>`],
  ];
  const freeze = html`<form method="post" action="${USER_PATH}${u.id}/active/">
    ${csrfInput(input.csrfToken)}<input type="hidden" name="active" value="${u.isActive ? 'no' : 'yes'}" />
    <button class="${u.isActive ? 'delete' : 'default'}" type="submit">${u.isActive ? 'Freeze' : 'Unfreeze'}</button>
  </form>`;
  const kyc = html`<form method="post" action="${USER_PATH}${u.id}/kyc/">
    ${csrfInput(input.csrfToken)}<label for="id_level">KYC level</label>
    <select name="level" id="id_level">
      ${LEVELS.map((l) => html`<option value="${l}" ${l === level ? 'selected' : ''}>${l}</option>`)}
    </select>
    <button class="default" type="submit">Set level</button>
  </form>`;
  return financePage(
    input,
    {
      title: u.username,
      banners: saved,
      breadcrumbs: [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Users', href: USER_PATH }, { label: u.username }],
      back: { href: USER_PATH, label: 'Back to Users' },
    },
    html`${table(
        'User',
        ['Field', 'Value'],
        facts.map(([k, v]) => [k, v]),
      )}
      <div class="module">
        <h2>Actions</h2>
        ${
          u.isSuperuser || u.isStaff === true
            ? html`<p class="body help">
                An operator's account changes by two people: propose it at <a href="/admin/identity/operator-change/">Operator changes</a>, a different
                superuser approves it.
              </p>`
            : html`<div class="body actions">${freeze}${kyc}</div>`
        }
      </div>`,
  );
}

const idParam = z.object({ id: z.string().uuid() });
const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const field = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? body[name] : '');
const back = (input: AnyRouteInput): Reply => ({ kind: 'redirect', status: 302, location: `${USER_PATH}${(input.params as { id: string }).id}/?saved=1` });

interface AddUserValues {
  username: string;
  email: string;
  superuser: boolean;
  staff: boolean;
}

/** The add-user form (Django admin's "Add user"): empty, or again with what was typed (never the password) and each field's problems. */
function addUserPage(input: AnyRouteInput, values: AddUserValues, opts: { status?: number; message?: string; fields?: Record<string, string[]> } = {}): Reply {
  const errors = (name: string) => {
    const list = opts.fields?.[name] ?? [];
    return list.length
      ? html`<ul class="errorlist" id="id_${name}_errors">
          ${list.map((m) => html`<li>${m}</li>`)}
        </ul>`
      : '';
  };
  const row = (name: string, label: string, control: unknown, help = '') =>
    html`<div class="row">
      <label class="name" for="id_${name}">${label}</label>
      <div>${errors(name)}${control}${help ? html`<div class="help">${help}</div>` : ''}</div>
    </div>`;
  return financePage(
    input,
    {
      title: 'Add user',
      status: opts.status,
      banners: opts.message ? [{ level: 'error', text: opts.message }] : [],
      breadcrumbs: [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Users', href: USER_PATH }, { label: 'Add user' }],
      back: { href: USER_PATH, label: 'Back to Users' },
    },
    html`<div class="module">
      <h2>Add user</h2>
      <form class="aligned body" method="post" action="${USER_PATH}add/" novalidate>
        ${csrfInput(input.csrfToken)}
        ${row(
          'username',
          'User name',
          html`<input type="text" name="username" id="id_username" value="${values.username}" maxlength="150" autocomplete="off" required />`,
          '1 to 150 characters: letters, digits and @ . + - _ only (case-insensitive).',
        )}
        ${row('email', 'E-mail', html`<input type="email" name="email" id="id_email" value="${values.email}" required />`, 'Counts as verified.')}
        ${row(
          'password',
          'Password',
          html`<input type="password" name="password" id="id_password" autocomplete="new-password" required />`,
          'At least 10 characters, not entirely numeric.',
        )}
        ${row(
          'superuser',
          'Superuser',
          html`<input type="checkbox" name="superuser" id="id_superuser" value="on" ${values.superuser ? 'checked' : ''} />`,
          'May sign in to this console and do everything in it. Proposed: the user is added without the role until a different superuser approves it.',
        )}
        ${row(
          'staff',
          'Support staff',
          html`<input type="checkbox" name="staff" id="id_staff" value="on" ${values.staff ? 'checked' : ''} />`,
          'May sign in to this console for users, disputes and KYC reviews only (no money decisions, settings, credentials, licence or operators). Proposed, as above.',
        )}
        <div class="submit-row"><button class="default" type="submit">Save</button></div>
      </form>
    </div>`,
  );
}

const addValues = (body: Record<string, unknown>): AddUserValues => ({
  username: field(body, 'username').trim(),
  email: field(body, 'email').trim(),
  superuser: ['on', 'yes', 'true', '1'].includes(field(body, 'superuser')),
  staff: ['on', 'yes', 'true', '1'].includes(field(body, 'staff')),
});

userAdminRoutes.push(
  route({
    method: 'GET',
    path: `${USER_PATH}add/`,
    summary: 'Admin console: the add-user form',
    description: 'User name, e-mail, password and the superuser checkbox.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUserAdd',
    response: { description: 'The form (HTML)', contentType: 'text/html' },
    respond: (_data, input) => addUserPage(input, { username: '', email: '', superuser: false, staff: false }),
    respondError: financeError('Add user'),
  }),
  route({
    method: 'POST',
    path: `${USER_PATH}add/`,
    summary: 'Admin console: add a user',
    description:
      'Form fields `username`, `email`, `password`, `superuser` (on), `staff` (on) and the CSRF token. Invalid fields: the form again (400) with their problems; a name that is taken: 409. ' +
      'Nothing is created on error. With `superuser` or `staff` the user is added without the role and the role is proposed (to /admin/identity/operator-change/): a different superuser approves it. ' +
      'Audited (`user.created`, `operator.change_proposed`).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminCreateUser',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ ...addValues(body), password: field(body, 'password') }),
    response: { status: 302, description: 'Added: to the new user' },
    errors: [400, 409],
    respond: (data, input) => {
      // an operator role is a proposal: to the list where a second superuser approves it
      const values = addValues((input.req.body ?? {}) as Record<string, unknown>);
      if (values.superuser || values.staff) return { kind: 'redirect', status: 302, location: '/admin/identity/operator-change/?saved=proposed' };
      return { kind: 'redirect', status: 302, location: `${USER_PATH}${data.createNodeUser.id}/?saved=added` };
    },
    respondError: (error, input) => {
      if (error.status !== 400 && error.status !== 409) return financeError('Add user')(error, input);
      const body = (input.req.body ?? {}) as Record<string, unknown>;
      // a taken name is the user name field's problem
      const fields = error.status === 409 ? { username: [error.message] } : error.fields;
      return addUserPage(input, addValues(body), {
        status: error.status,
        message: error.status === 409 ? error.message : 'Please correct the errors below.',
        fields,
      });
    },
  }),
);

userAdminRoutes.push(
  route({
    method: 'GET',
    path: `${USER_PATH}:id/`,
    summary: 'Admin console: a user',
    description: 'The user, with the forms to freeze or unfreeze them and to set their KYC level.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUser',
    params: idParam,
    query: z.object({ saved: z.string().optional() }),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { description: 'The user (HTML)', contentType: 'text/html' },
    errors: [404],
    respond: userPage,
    respondError: financeError('User'),
  }),
  route({
    method: 'POST',
    path: `${USER_PATH}:id/active/`,
    summary: 'Admin console: freeze or unfreeze a user',
    description: 'Form field `active` (yes: unfreeze, no: freeze) and the CSRF token. A frozen user cannot sign in or move money; every token of theirs ends.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSetUserActive',
    consumes: 'form',
    csrf: true,
    params: idParam,
    body: form,
    variables: ({ params, body }: { params: { id: string }; body: Record<string, unknown> }) => ({ user: params.id, active: field(body, 'active') === 'yes' }),
    response: { status: 302, description: 'Changed: back to the user' },
    errors: [404],
    respond: (_data, input) => back(input),
    respondError: financeError('User'),
  }),
  route({
    method: 'POST',
    path: `${USER_PATH}:id/kyc/`,
    summary: "Admin console: set a user's KYC level",
    description: 'Form field `level` (none, basic, enhanced) and the CSRF token.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSetUserKycLevel',
    consumes: 'form',
    csrf: true,
    params: idParam,
    // the level is checked here (a clear 400 after the licence gate), never left to GraphQL's enum coercion
    body: z.object({ level: z.enum(['none', 'basic', 'enhanced']) }).passthrough(),
    variables: ({ params, body }: { params: { id: string }; body: { level: 'none' | 'basic' | 'enhanced' } }) => ({
      user: params.id,
      level: KYC_LEVELS[body.level],
    }),
    response: { status: 302, description: 'Changed: back to the user' },
    errors: [400, 404],
    respond: (_data, input) => back(input),
    respondError: financeError('User'),
  }),
);

import { html } from '../../../lib/html';
import { listQueryWith, listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { financeError, financePage, when, yesNo } from './layout';

/** The console's users: a list with search, filters, paging and CSV export (the console kit's list). */

interface UserRow {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  phone: string | null;
  kycLevel: string;
  isSuperuser: boolean;
  isActive: boolean;
  twoFactorEnabled: boolean;
  dateJoined: string;
  lastLogin: string | null;
}

const yes = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;
const is = (flag: boolean, value: string) => flag === (value === 'yes');

export const USERS_LIST: ListSpec<UserRow> = {
  title: 'Users',
  path: '/admin/identity/user/',
  filename: 'users',
  columns: [
    { label: 'Username', cell: (u) => u.username },
    { label: 'E-mail', cell: (u) => u.email },
    { label: 'Verified', cell: (u) => yesNo(u.emailVerified), csv: (u) => u.emailVerified },
    { label: 'Phone', cell: (u) => u.phone ?? '—', csv: (u) => u.phone },
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

function usersPage(data: { nodeUsers: UserRow[] }, input: AnyRouteInput): Reply {
  const view = listView(USERS_LIST, data.nodeUsers, input);
  if (view.kind === 'file') return view.reply;
  return financePage(
    input,
    {
      title: 'Users',
      breadcrumbs: [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Users' }],
      back: { href: '/admin/identity/', label: 'Back to Identity' },
    },
    view.body,
  );
}

export const userAdminRoutes: Route[] = [
  {
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
  },
];

import type { Request } from 'express';
import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { type AdminPageOperation, type ResultOf } from '../operation';
import { COMMERCE_MODELS } from './commerce-models';
import { adminPage, financeError, flash, type PageOptions } from './layout';
import { PAYMENTS_ADMIN_MODELS } from './payments-models';

/**
 * The admin console's apps (/admin/<app>/) and their models, and the page helpers every console
 * module shares (routes.ts and the app modules import them from here, so no app module imports the
 * route table that lists it).
 */

export const siteName = (req: Request) => (req.app.locals.siteName as string | undefined) ?? 'Finance Node';
/** The signed-in superuser's name, from the page's operation (every console page asks for `nodeAdminUser`). */
export const userOf = (req: Request) => req.res?.locals.adminUser as string | undefined;

export function page(input: RouteInput, opts: Omit<PageOptions, 'siteName' | 'csrfToken'> & { status?: number }, body: Raw): Reply {
  return { kind: 'html', status: opts.status, html: adminPage({ ...opts, siteName: siteName(input.req), csrfToken: input.csrfToken }, body) };
}

/** Every console page: not signed in → the sign-in page (Django's redirect with ?next=), any other failure → the error on a page (the console kit's). */
export function adminError(title: string) {
  return financeError(title);
}

/** The apps of /admin/<app>/ and their models. */
export const APPS: Record<string, { label: string; models: { label: string; href: string; count?: (d: AppIndexData) => number }[] }> = {
  node: {
    label: 'Node',
    models: [
      { label: 'Settings record', href: '/admin/node/settings/' },
      { label: 'Branding', href: '/admin/node/branding/' },
      { label: 'Provider credentials', href: '/admin/node/providercredential/', count: (d) => d.nodeProviderCredentials.length },
      { label: 'Licence', href: '/admin/node/licence/' },
      { label: 'Activity log', href: '/admin/node/activity/' },
      { label: 'Audit log', href: '/admin/audit/' },
    ],
  },
  identity: {
    label: 'Identity',
    models: [
      { label: 'Users', href: '/admin/identity/user/', count: (d) => d.nodeUserStats.total },
      { label: 'Sign-up and invites', href: '/admin/identity/signup/' },
      { label: 'Operator changes', href: '/admin/identity/operator-change/' },
    ],
  },
  ledger: {
    label: 'Ledger',
    models: [
      { label: 'Accounts', href: '/admin/ledger/account/', count: (d) => d.ledgerCounts.accounts },
      { label: 'Transfers', href: '/admin/ledger/transfer/', count: (d) => d.ledgerCounts.transfers },
      { label: 'Manual adjustments', href: '/admin/adjustments/' },
      ...PAYMENTS_ADMIN_MODELS,
    ],
  },
  compliance: { label: 'Compliance', models: [{ label: 'KYC reviews', href: '/admin/compliance/verification/' }] },
  commerce: { label: 'Commerce', models: COMMERCE_MODELS },
  banking: {
    label: 'Banking',
    models: [
      { label: 'Virtual accounts', href: '/admin/banking/virtualaccount/' },
      { label: 'Movements', href: '/admin/banking/movement/' },
      { label: 'Provider webhooks', href: '/admin/banking/event/' },
    ],
  },
  cards: {
    label: 'Cards',
    models: [
      { label: 'Cards', href: '/admin/cards/card/' },
      { label: 'Authorisations', href: '/admin/cards/authorisation/' },
    ],
  },
  crypto: {
    label: 'Crypto',
    models: [
      { label: 'Deposit addresses', href: '/admin/crypto/address/' },
      { label: 'Deposits', href: '/admin/crypto/deposit/' },
      { label: 'Swaps', href: '/admin/crypto/swap/' },
    ],
  },
  investing: {
    label: 'Investing',
    models: [
      { label: 'Instruments', href: '/admin/investing/instrument/' },
      { label: 'Orders', href: '/admin/investing/order/' },
      { label: 'Sync and price runs', href: '/admin/investing/run/' },
    ],
  },
};

/** The apps of the console (/admin/<app>/), in the dashboard's order. */
export const ADMIN_APPS = Object.keys(APPS) as [string, ...string[]];

export type AppIndexData = ResultOf<'AdminAppIndex'>;

/** A model's list as its page declares it: the console kit's list spec, whose path and file name come from the page. */
export type AppListSpec<R> = Omit<ListSpec<R>, 'path' | 'filename'>;

/**
 * A model's list under its app (/admin/<app>/<model>/): a back link to the app, then the list with
 * search, filters, paging and `?format=csv` (the console kit's `listView`).
 * `parent`: a record's page under a list (a dispute under Disputes): its back link and breadcrumb lead there.
 */
export function appList<R>(app: string, list: AppListSpec<R>, rows: R[], input: RouteInput, extra?: Raw, parent?: { label: string; href: string }): Reply {
  const { title } = list;
  const view = listView({ ...list, path: input.req.path, filename: `${app}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }, rows, input);
  if (view.kind === 'file') return view.reply;
  const up = parent ?? { label: APPS[app].label, href: `/admin/${app}/` };
  return page(
    input,
    {
      title,
      user: userOf(input.req),
      breadcrumbs: [{ label: APPS[app].label, href: `/admin/${app}/` }, ...(parent ? [parent] : []), { label: title }],
    },
    html`<a class="back" href="${up.href}">← Back to ${up.label}</a>${extra ?? ''}${view.body}`,
  );
}

/** A form's answer: back to the list (302). */
export const postRedirect = (location: string): Reply => ({ kind: 'redirect', status: 302, location });

export const saved = (input: RouteInput, what: string) => flash(input, 'saved', () => `The ${what} was changed successfully.`);

/** The banner of a page whose node has no valid licence (read-only). */
export const readOnlyBanner = (readOnly: boolean) =>
  readOnly
    ? [
        {
          level: 'error' as const,
          text: 'No valid licence: the node is read-only. Install a licence (Node › Licence); the settings record can still be changed.',
        },
      ]
    : [];

/** The query of a console page after a form (`?saved=`) or of the sign-in page (`?next=`). */
export const adminQuery = z.object({ saved: z.string().optional(), next: z.string().optional() });

/** A console form's fields as the browser posts them. */
export const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** A form field's value (the first, when a field is repeated). */
export const str = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : typeof v === 'string' ? v : '');

/** A console page whose operation names the signed-in superuser (nodeAdminUser) shows it in the header. */
export function withAdminUser(route: Route): Route {
  const respond = route.respond;
  if (!respond) return route;
  return {
    ...route,
    // any route's data: a console page's selects the signed-in superuser
    respond: (data: Partial<Pick<ResultOf<AdminPageOperation>, 'nodeAdminUser'>> | null, input: RouteInput) => {
      if (data?.nodeAdminUser && input.req.res) input.req.res.locals.adminUser = data.nodeAdminUser.username;
      return respond(data, input);
    },
  };
}

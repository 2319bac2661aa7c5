import { html, type Raw } from '../../../lib/html';
import { consoleDocument, consoleError, consolePage, type ConsoleFrame, type FrameOptions, type PageOptions as KitPageOptions } from '../../console/kit';
import type { AnyRouteInput, Reply } from '../../core/route';
import { LOGO_PATH } from '../../../subgraphs/finance/node/contract';

export { csrfInput, flash, money, table, when, yesNo } from '../../console/kit';

/** The finance node's admin console on the console kit (rest-adapter/console/): Django admin's look, at /admin/. */
export const FINANCE_CONSOLE: ConsoleFrame = {
  home: '/admin/',
  label: 'administration',
  loginPath: '/admin/login/',
  logoutPath: '/admin/logout/',
  defaultSiteName: 'Finance Node',
  docs: { href: '/swagger/', label: 'API docs' },
  // the uploaded logo: GET /api/v1/config/logo/, 404 while there is none
  logo: LOGO_PATH,
};

export type PageOptions = FrameOptions;

export function adminPage(opts: FrameOptions, body: Raw): string {
  return consoleDocument(FINANCE_CONSOLE, opts, body);
}

/** A page of the finance console. */
export const financePage = (input: AnyRouteInput, opts: KitPageOptions, body: Raw): Reply => consolePage(input, FINANCE_CONSOLE, opts, body);

/** The finance console's error page (401: its sign-in page). */
export const financeError = (title: string, opts: Omit<KitPageOptions, 'title' | 'status' | 'banners'> = {}) => consoleError(FINANCE_CONSOLE, title, opts);

/** A record's user as the console shows them: their @handle linking to their user page (the id only when identity did not answer). */
export const userCell = (row: { userId: string; user?: { username: string } | null }): Raw =>
  row.user ? html`<a href="/admin/identity/user/${row.userId}/">@${row.user.username}</a>` : html`<code>${row.userId.slice(0, 8)}</code>`;

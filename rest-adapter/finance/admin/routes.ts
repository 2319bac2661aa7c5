import type { Route } from '../../core/route';
import { withAdminUser } from './apps';
import { adjustmentAdminRoutes } from './adjustments';
import { auditAdminRoutes } from './audit';
import { bankingAdminRoutes } from './banking';
import { cardsCryptoAdminRoutes } from './cardscrypto';
import { dashboardAdminRoutes } from './dashboard';
import { ledgerAdminRoutes } from './ledger';
import { nodeAdminRoutes } from './node';
import { operatorAdminRoutes } from './operators';
import { paymentsAdminRoutes } from './payments';
import { sessionAdminRoutes } from './session';
import { consoleThemeRoute } from '../../console/theme';
import { FINANCE_CONSOLE } from './layout';
import { signupAdminRoutes } from './signup';
import { userAdminRoutes } from './users';

export { adminAppIndexRoute } from './dashboard';

/**
 * The admin console at /admin/ (contract: superuser sign-in; home is an executive dashboard;
 * /admin/<app>/ a plain model list with a back link), server-rendered through the route table:
 * every page is a persisted operation run as the signed-in superuser (session cookie `sessionid`,
 * HttpOnly, SameSite=Lax), every form carries the CSRF token.
 */

/** The console's pages, app by app (each module lists its own; the order is the one they are answered in). */
const consoleRoutes: Route[] = [
  consoleThemeRoute(FINANCE_CONSOLE),
  ...sessionAdminRoutes,
  ...dashboardAdminRoutes,
  ...nodeAdminRoutes,
  ...userAdminRoutes,
  ...signupAdminRoutes,
  ...auditAdminRoutes,
  ...adjustmentAdminRoutes,
  ...operatorAdminRoutes,
  ...ledgerAdminRoutes,
  ...cardsCryptoAdminRoutes,
  ...paymentsAdminRoutes,
];

/** Each page's operation also names the signed-in superuser (nodeAdminUser), for the page header. */
export const adminRoutes: Route[] = [...consoleRoutes, ...bankingAdminRoutes].map(withAdminUser);

import { consolePages, relation } from '../../console/pages';
import { commerceAdminRoutes } from './commerce';
import { adminAppIndexRoute, adminRoutes } from './routes';

/** The finance console's pages registered with the console kit's order (the kit's own rules: rest-adapter/console/pages.spec.ts). */
describe('the finance console pages', () => {
  it('answers every finance console page before /admin/<app>/, even when the app index registers first', () => {
    const routes = consolePages([
      { name: 'apps', pages: [adminAppIndexRoute] },
      { name: 'commerce', pages: commerceAdminRoutes },
      { name: 'console', pages: adminRoutes },
    ]);
    const index = routes.indexOf(adminAppIndexRoute);
    const covered = routes.filter((r) => relation(adminAppIndexRoute, r) === 'covers');
    expect(covered.map((r) => r.path)).toEqual(expect.arrayContaining(['/admin/login/', '/admin/audit/', '/admin/adjustments/']));
    for (const r of covered) expect(routes.indexOf(r)).toBeLessThan(index);
  });
});

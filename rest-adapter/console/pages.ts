import type { Route } from '../core/route';

/**
 * Registration of a console's pages: each module returns its routes (as a Django app registers its
 * ModelAdmin), and `consolePages` answers them in an order where no page is shadowed by a pattern
 * registered before it (`/admin/:app/` after `/admin/audit/`, whatever the modules' order). Two
 * modules that register the same page, or patterns that each shadow part of the other, are refused
 * when the surface starts.
 */

export interface ConsoleModule<S extends string = string> {
  /** The module's name, for the error message of a refused registration. */
  name: string;
  pages: Route<S>[];
}

const segments = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith(':') || segment === '*';

/**
 * How `a` relates to `b` (same method, same number of segments): `same` (the same page), `covers` (a's
 * pattern answers every path of b's, so b must come first), `within` (the reverse), `overlaps` (each
 * answers some paths of the other) or `apart`.
 */
export function relation(
  a: Pick<Route<string>, 'method' | 'path'>,
  b: Pick<Route<string>, 'method' | 'path'>,
): 'same' | 'covers' | 'within' | 'overlaps' | 'apart' {
  const [sa, sb] = [segments(a.path), segments(b.path)];
  if (a.method !== b.method || sa.length !== sb.length) return 'apart';
  let aWider = false;
  let bWider = false;
  for (let i = 0; i < sa.length; i++) {
    const [pa, pb] = [isParam(sa[i]), isParam(sb[i])];
    if (!pa && !pb && sa[i] !== sb[i]) return 'apart';
    if (pa && !pb) aWider = true;
    if (pb && !pa) bWider = true;
  }
  if (aWider && bWider) return 'overlaps';
  return aWider ? 'covers' : bWider ? 'within' : 'same';
}

/** The modules' pages in a safe order: registration order, except that a page goes before every pattern that covers it. */
export function consolePages<S extends string>(modules: ConsoleModule<S>[]): Route<S>[] {
  const placed: { route: Route<S>; module: string }[] = [];
  for (const module of modules) {
    for (const route of module.pages) {
      let at = placed.length;
      placed.forEach((p, i) => {
        const r = relation(p.route, route);
        const where = `${route.method} ${route.path} (${module.name}) and ${p.route.method} ${p.route.path} (${p.module})`;
        if (r === 'same') throw new Error(`Console pages: ${where} are the same page, registered twice`);
        if (r === 'overlaps') throw new Error(`Console pages: ${where} each answer some paths of the other; make one of them specific`);
        if (r === 'covers' && i < at) at = i;
      });
      placed.splice(at, 0, { route, module: module.name });
    }
  }
  return placed.map((p) => p.route);
}

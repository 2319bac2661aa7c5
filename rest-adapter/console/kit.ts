import type { Request } from 'express';
import { html, type Raw } from '../../lib/html';
import { CSRF_FIELD } from '../core/csrf';
import type { AnyRouteInput, Reply, RouteError } from '../core/route';
import { themePath, type ThemeVars } from './theme';

/**
 * The console kit: ONE page frame, error page, date and money format, flash message, CSRF field and
 * table for every server-rendered page (the finance admin console, the registry workspace, the
 * prediction API's application pages). A console describes itself once (`ConsoleFrame`: where its
 * home, sign-in and sign-out are, and its theme: the variables of the kit's one stylesheet, theme.ts, and its header) and
 * it signs in with the kit's sign-in page (sign-in.ts); its modules build their
 * pages with `consolePage`, their errors with `consoleError`, their lists with `listView` (list.ts),
 * and register their routes with `consolePages` (pages.ts).
 */

export interface ConsoleFrame {
  /** The console's home, e.g. `/admin/`. */
  home: string;
  /** The header's suffix after the site name, e.g. "administration". */
  label: string;
  /** Where a page that needs a signed-in user sends the browser (absent: the console has no sign-in). */
  loginPath?: string;
  logoutPath?: string;
  /** The sign-in redirect carries `?next=` (the page asked for), unless `false`. */
  loginNext?: boolean;
  /** The site name when the app has none (`req.app.locals.siteName`). */
  defaultSiteName: string;
  /** A link in the user tools (e.g. the API documentation). */
  docs?: { href: string; label: string };
  /** The console's look (default: the Django admin's, `ADMIN_THEME`). */
  theme?: ConsoleTheme;
  /**
   * The organisation's logo, shown in the header before the site name: a path on the console's own origin that
   * answers the image, or 404 when there is none (the header then shows the name only: the image is decorative, `alt=""`).
   */
  logo?: string;
}

/** A console's look: its stylesheet, title, header and the element that holds the page. */
export interface ConsoleTheme {
  /** The console's values of the kit's one stylesheet (theme.ts): accent colour, header, widths. */
  vars?: ThemeVars;
  /** The document's title. */
  title: (page: string, siteName: string, frame: ConsoleFrame) => string;
  /** The header: brand, navigation, who is signed in and the sign-out form (`''`: none). */
  header: (frame: ConsoleFrame, opts: FrameOptions) => Raw;
  /** The page's container: `<main>`, or the Django admin's `<div id="content">` (default). */
  container?: 'main' | 'content';
  /** Breadcrumbs under the header (default: shown). */
  breadcrumbs?: boolean;
  /** More <head> content on every page (e.g. a favicon link). */
  head?: Raw;
}

/** A date as every console shows it: `2026-11-27 17:12:47 UTC` (or `—`). */
export function when(value: string | Date | null | undefined, opts: { seconds?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value as string);
  return `${date
    .toISOString()
    .replace('T', ' ')
    .slice(0, opts.seconds === false ? 16 : 19)} UTC`;
}

export const siteNameOf = (req: Request, frame: Pick<ConsoleFrame, 'defaultSiteName'>) =>
  (req.app.locals.siteName as string | undefined) ?? frame.defaultSiteName;

/** The signed-in operator's name, as the page's operation reported it (`res.locals.adminUser`). */
export const consoleUserOf = (req: Request) => req.res?.locals.adminUser as string | undefined;

export function csrfInput(token: string | undefined): Raw {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token ?? ''}" />`;
}

/** An amount as every console shows it: `12.50 EUR` (or `—`). */
export const money = (m: { amount: string | number; currency: string } | null | undefined): string => (m ? `${m.amount} ${m.currency}` : '—');

/**
 * A flash message after a redirect (`?saved=3` → "Branding version 3 saved."): the banner when the page's
 * query names `param`, none otherwise.
 */
export function flash(input: AnyRouteInput, param: string, text: (value: string) => string, level: Banner['level'] = 'ok'): Banner[] {
  const value = (input.query as Record<string, unknown> | undefined)?.[param];
  return typeof value === 'string' && value !== '' ? [{ level, text: text(value) }] : [];
}

export const yesNo = (v: boolean) => (v ? html`<span class="on">✔ on</span>` : html`<span class="off">✘ off</span>`);

export interface Banner {
  level: 'error' | 'warning' | 'ok';
  text: string;
}

export interface FrameOptions {
  title: string;
  siteName: string;
  /** Signed in as (absent on the sign-in page). */
  user?: string;
  csrfToken?: string;
  breadcrumbs?: { label: string; href?: string }[];
  banners?: Banner[];
  /** More <head> content for this page (e.g. a refresh while a build runs). */
  head?: Raw;
}

function adminHeader(frame: ConsoleFrame, opts: FrameOptions): Raw {
  const docs = frame.docs ? html`<a href="${frame.docs.href}">${frame.docs.label}</a> /` : '';
  const tools =
    opts.user && frame.logoutPath
      ? html`<div id="user-tools">
          Welcome, <strong>${opts.user}</strong>. ${docs}
          <form method="post" action="${frame.logoutPath}">${csrfInput(opts.csrfToken)}<button type="submit">Log out</button></form>
        </div>`
      : '';
  return html`<div id="header">
    <h1>
      <a href="${frame.home}">${frame.logo ? html`<img class="brand-logo" src="${frame.logo}" alt="" />` : ''}${opts.siteName} ${frame.label}</a>
    </h1>
    ${tools}
  </div>`;
}

/** The Django admin's look: the finance console's (the stylesheet's defaults). */
export const ADMIN_THEME: ConsoleTheme = {
  title: (page, siteName, frame) => `${page} | ${siteName} ${frame.label}`,
  header: adminHeader,
};

/** The whole HTML document of a console page: header, breadcrumbs, banners, body; its one asset is the kit's stylesheet, from the console's own origin. */
export function consoleDocument(frame: ConsoleFrame, opts: FrameOptions, body: Raw): string {
  const theme = frame.theme ?? ADMIN_THEME;
  const crumbs =
    theme.breadcrumbs !== false && opts.breadcrumbs?.length
      ? html`<div class="breadcrumbs">
          <a href="${frame.home}">Home</a>${opts.breadcrumbs.map((b) => html` › ${b.href ? html`<a href="${b.href}">${b.label}</a>` : b.label}`)}
        </div>`
      : '';
  const banners = (opts.banners ?? []).map((b) => html`<div class="banner ${b.level}" role="${b.level === 'error' ? 'alert' : 'status'}">${b.text}</div>`);
  const content = theme.container === 'main' ? html`<main>${banners} ${body}</main>` : html`<div id="content">${banners} ${body}</div>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${theme.title(opts.title, opts.siteName, frame)}</title>
        ${theme.head ?? ''}
        <link rel="stylesheet" href="${themePath(frame.home)}" />
        ${opts.head ?? ''}
      </head>
      <body>
        ${theme.header(frame, opts)} ${crumbs} ${content}
      </body>
    </html>`.value;
}

export interface PageOptions {
  title: string;
  status?: number;
  /** Default: the operator the page's operation named. */
  user?: string;
  breadcrumbs?: { label: string; href?: string }[];
  banners?: Banner[];
  /** A back link above the body. */
  back?: { href: string; label: string };
  /** More <head> content for this page. */
  head?: Raw;
}

/** A console page as a route's reply. */
export function consolePage(input: AnyRouteInput, frame: ConsoleFrame, opts: PageOptions, body: Raw): Reply {
  const back = opts.back ? html`<a class="back" href="${opts.back.href}">← ${opts.back.label}</a>` : '';
  return {
    kind: 'html',
    status: opts.status,
    html: consoleDocument(
      frame,
      {
        title: opts.title,
        siteName: siteNameOf(input.req, frame),
        user: opts.user ?? consoleUserOf(input.req),
        csrfToken: input.csrfToken,
        breadcrumbs: opts.breadcrumbs ?? [{ label: opts.title }],
        banners: opts.banners,
        head: opts.head,
      },
      html`${back}${body}`,
    ),
  };
}

/**
 * A console page's error reply: not signed in → the sign-in page with `?next=` (as Django's admin
 * does); any other refusal → the message (and each field's problems) on a page of its status.
 */
export function consoleError(frame: ConsoleFrame, title: string, opts: Omit<PageOptions, 'title' | 'status' | 'banners'> = {}) {
  return (error: RouteError, input: AnyRouteInput): Reply => {
    if (error.status === 401 && frame.loginPath) {
      const next = frame.loginNext === false ? '' : `?next=${encodeURIComponent(input.req.originalUrl)}`;
      return { kind: 'redirect', status: 302, location: `${frame.loginPath}${next}` };
    }
    const fields = Object.entries(error.fields ?? {}).map(([f, m]) => html`<li><strong>${f}</strong>: ${Array.isArray(m) ? m.join(' ') : String(m)}</li>`);
    return consolePage(
      input,
      frame,
      { back: { href: 'javascript:history.back()', label: 'Back' }, ...opts, title, status: error.status, banners: [{ level: 'error', text: error.message }] },
      fields.length
        ? html`<ul class="errorlist">
            ${fields}
          </ul>`
        : html``,
    );
  };
}

/**
 * A captioned table of a console page, or its empty message (wide tables scroll on a phone, the page does not).
 * The scrolling box is a named region a keyboard can reach (tabindex), so that its hidden columns can be scrolled to.
 */
export function table(caption: string, head: string[], rows: unknown[][], empty = 'None.'): Raw {
  return html`<div class="module scroll" role="region" aria-label="${caption}" tabindex="0">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows.map(
                (r) =>
                  html`<tr>
                    ${r.map((c, i) => html`<td data-label="${head[i] ?? ''}">${c}</td>`)}
                  </tr>`,
              )
            : html`<tr>
                <td colspan="${head.length || 1}">${empty}</td>
              </tr>`
        }
      </tbody>
    </table>
  </div>`;
}

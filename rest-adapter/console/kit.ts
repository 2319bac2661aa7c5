import type { Request } from 'express';
import { html, raw, type Raw } from '../../lib/html';
import { CSRF_FIELD } from '../core/csrf';
import type { AnyRouteInput, Reply, RouteError } from '../core/route';

/**
 * The console kit: ONE page frame, error page, date and money format, flash message, CSRF field and
 * table for every server-rendered page (the finance admin console, the registry workspace, the
 * prediction API's application pages). A console describes itself once (`ConsoleFrame`: where its
 * home, sign-in and sign-out are, and its theme: stylesheet and header) and its modules build their
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
  style: string;
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

const ADMIN_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,"Segoe UI",system-ui,Roboto,"Helvetica Neue",Arial,sans-serif;color:#333;background:#f8f8f8}
a{color:#2f6a86;text-decoration:none}a:hover{color:#036}
#header{display:flex;justify-content:space-between;align-items:center;padding:10px 40px;background:#417690;color:#ffc}
#header h1{margin:0;font-size:18px;font-weight:400}#header h1 a{color:#ffc;display:inline-flex;align-items:center;gap:8px}
#header .brand-logo{max-height:32px;max-width:160px;background:#fff;border-radius:3px}
#user-tools{font-size:12px;text-transform:uppercase;letter-spacing:.5px}#user-tools form{display:inline}
#user-tools a{color:#fff;text-decoration:underline}#user-tools button{background:none;border:0;color:#fff;cursor:pointer;font:inherit;text-transform:uppercase;text-decoration:underline}
.breadcrumbs{background:#e8f1f5;padding:10px 40px;color:#555}.breadcrumbs a{color:#2f6a86;text-decoration:underline}
#content{padding:20px 40px}h2.title{font-size:20px;font-weight:300;color:#666;margin:0 0 16px}
.banner{padding:10px 14px;margin:0 0 16px;border-radius:4px}.banner.error{background:#ba2121;color:#fff}.banner.warning{background:#ffc;border:1px solid #e6db55}.banner.ok{background:#dfd;border:1px solid #b3d9b3}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:20px}.grid.wide{grid-template-columns:repeat(auto-fit,minmax(min(540px,100%),1fr))}
.module{background:#fff;border:1px solid #e5e5e5;border-radius:4px;margin-bottom:20px;overflow:hidden}
.module h2,.module caption{margin:0;padding:8px 12px;font-size:13px;font-weight:400;text-align:left;background:#3c6f88;color:#fff;text-transform:uppercase;letter-spacing:.5px}
.module .body{padding:10px 12px}.stat{font-size:28px;font-weight:300;color:#417690}
table{width:100%;border-collapse:collapse}th,td{padding:8px 12px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
thead th{background:#f6f6f6;color:#666;font-size:11px;text-transform:uppercase;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
.on{color:#2e7d32;font-weight:600}.off{color:#6b6b6b}
form.aligned .row{display:flex;gap:16px;padding:10px 0;border-bottom:1px solid #eee}form.aligned label.name{width:240px;font-weight:600}
form.aligned .help{color:#6b6b6b;font-size:12px}input[type=text],input[type=password],input[type=url],input[type=email],textarea,select{padding:6px;border:1px solid #ccc;border-radius:4px;font:inherit;min-width:320px}
textarea{min-height:80px}.submit-row{padding:12px;background:#f8f8f8;text-align:right}
button.default,input.default{background:#417690;color:#fff;border:0;border-radius:4px;padding:8px 16px;cursor:pointer;font:inherit}
button.delete{background:#ba2121;color:#fff;border:0;border-radius:4px;padding:4px 10px;cursor:pointer}
.errorlist{color:#ba2121;margin:4px 0;padding:0;list-style:none}.back{display:inline-block;margin:0 0 12px}
.login{max-width:380px;margin:80px auto;background:#fff;border:1px solid #eaeaea;border-radius:4px}
.login h1{margin:0;padding:14px;background:#417690;color:#ffc;font-size:18px;font-weight:400;text-align:center}.login form{padding:20px}
.login .row{margin-bottom:14px}.login label{display:block;font-weight:600;margin-bottom:4px}.login input{width:100%;min-width:0}
code{background:#f0f0f0;padding:1px 4px;border-radius:3px;word-break:break-all}
.toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:0 0 12px}.toolbar label{display:block;font-size:11px;color:#666;text-transform:uppercase}
.toolbar>div{min-width:0;max-width:100%}.toolbar input[type=search],.toolbar select{min-width:0;width:auto;max-width:100%}.pager{display:flex;gap:12px;align-items:center;margin:8px 0}
.scroll{overflow-x:auto;max-width:100%}.scroll:focus-visible{outline:2px solid #2f6a86;outline-offset:2px}.actions form{display:inline-block;margin:0 8px 8px 0}
@media (max-width:700px){#header,.breadcrumbs,#content{padding-left:12px;padding-right:12px}#header{flex-wrap:wrap;gap:6px}
input[type=text],input[type=password],input[type=url],input[type=email],input[type=number],textarea,select{min-width:0;width:100%}
form.aligned .row{flex-direction:column;gap:4px}form.aligned label.name{width:auto}th,td{padding:6px}
.scroll table,.scroll caption,.scroll tbody,.scroll tr,.scroll td{display:block;width:100%}.scroll thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.scroll tr{border-bottom:2px solid #e5e5e5;padding:4px 0}.scroll td{border:0;padding:3px 8px;overflow-wrap:anywhere}
.scroll td[data-label]:not([data-label=""])::before{content:attr(data-label);display:block;font-size:11px;color:#666;text-transform:uppercase}}
`;

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

/** The Django admin's look: the finance console's. */
export const ADMIN_THEME: ConsoleTheme = {
  style: ADMIN_STYLE,
  title: (page, siteName, frame) => `${page} | ${siteName} ${frame.label}`,
  header: adminHeader,
};

/** The whole HTML document of a console page: header, breadcrumbs, banners, body; no external assets. */
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
        <style>
          ${raw(theme.style)}
        </style>
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

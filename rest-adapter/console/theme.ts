import type { Reply, Route } from '../core/route';

/**
 * The consoles' ONE stylesheet. Every console page links it (`<link rel="stylesheet">`, no inline
 * <style>): the same rules for the header, the page, sign-in card, forms, tables and banners, and the
 * console's own look only as the custom properties its frame names (`ConsoleFrame.theme.vars`). The
 * file is served at the console's `themePath` by the route `consoleThemeRoute` builds, so a page works
 * under a Content-Security-Policy without 'unsafe-inline' styles.
 */

/** A console's look: the custom properties of the kit's stylesheet (each has a default: the Django admin's). */
export interface ThemeVars {
  /** The header's background (`none`: the page has no header bar). */
  header?: string;
  /** The header's text. */
  headerText?: string;
  /** Buttons, the sign-in card's heading, table captions. */
  accent?: string;
  accentText?: string;
  link?: string;
  background?: string;
  text?: string;
  muted?: string;
  /** The body's font size. */
  fontSize?: string;
  /** The widest the page's content gets (`none`: the window's width). */
  width?: string;
  /** The keyboard focus ring. */
  focus?: string;
}

const DEFAULTS: Required<ThemeVars> = {
  header: '#417690',
  headerText: '#ffc',
  accent: '#417690',
  accentText: '#fff',
  link: '#2f6a86',
  background: '#f8f8f8',
  text: '#333',
  muted: '#6b6b6b',
  fontSize: '14px',
  width: 'none',
  focus: '#f0b429',
};

const property = (name: string) => `--console-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const RULES = `
*{box-sizing:border-box}
body{margin:0;font:var(--console-font-size)/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--console-text);background:var(--console-background)}
a{color:var(--console-link)}a:hover{text-decoration:underline}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid var(--console-focus);outline-offset:2px}
#header,body>header{display:flex;flex-wrap:wrap;gap:6px 12px;justify-content:space-between;align-items:center;padding:10px 40px;background:var(--console-header);color:var(--console-header-text)}
#header h1{margin:0;font-size:18px;font-weight:400}#header h1 a,body>header a{color:var(--console-header-text);text-decoration:none;display:inline-flex;align-items:center;gap:8px}
#header .brand-logo{max-height:32px;max-width:160px;background:#fff;border-radius:3px}
body>header nav a{margin-right:16px}body>header form,#user-tools form{display:inline}
#user-tools{font-size:12px;text-transform:uppercase;letter-spacing:.5px}#user-tools a{color:#fff;text-decoration:underline}
#user-tools button{background:none;border:0;color:#fff;cursor:pointer;font:inherit;text-transform:uppercase;text-decoration:underline}
body>header button{background:none;border:1px solid currentColor;color:inherit;border-radius:4px;padding:4px 10px;cursor:pointer;font:inherit}
.breadcrumbs{background:#e8f1f5;padding:10px 40px;color:#555}.breadcrumbs a{text-decoration:underline}
#content{padding:20px 40px}main{max-width:var(--console-width);margin:0 auto;padding:24px}
h2.title{font-size:20px;font-weight:300;color:#666;margin:0 0 16px}main>h1{font-size:1.6em;margin:0 0 16px}
.banner{padding:10px 14px;margin:0 0 16px;border-radius:4px}.banner.error{background:#ba2121;color:#fff}.banner.warning{background:#ffc;border:1px solid #e6db55}.banner.ok{background:#dfd;border:1px solid #b3d9b3}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:20px}.grid.wide{grid-template-columns:repeat(auto-fit,minmax(min(540px,100%),1fr))}
.module,.card{background:#fff;border:1px solid #e5e5e5;border-radius:4px;margin-bottom:20px;overflow:hidden}.card{padding:16px;overflow-x:auto}.card .module{border:0}
.module h2,.module caption{margin:0;padding:8px 12px;font-size:13px;font-weight:400;text-align:left;background:var(--console-accent);color:var(--console-accent-text);text-transform:uppercase;letter-spacing:.5px}
.module .body{padding:10px 12px}.stat{font-size:28px;font-weight:300;color:var(--console-accent)}
table{width:100%;border-collapse:collapse}th,td{padding:8px 12px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
thead th{background:#f6f6f6;color:#666;font-size:11px;text-transform:uppercase;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
.on{color:#2e7d32;font-weight:600}.off{color:var(--console-muted)}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:600}
.badge.ok{background:#e3f9e5;color:#05400a}.badge.bad{background:#ffe3e3;color:#610404}.badge.warn{background:#fff3c4;color:#513c06}
form.aligned .row{display:flex;gap:16px;padding:10px 0;border-bottom:1px solid #eee}form.aligned label.name{width:240px;font-weight:600}
form.aligned .help,.hint,.muted{color:var(--console-muted);font-size:.9em}
label{font-weight:600}.field{margin:1.25rem 0}.field label{display:block}.field input,.field textarea{width:100%;min-width:0}
input[type=text],input[type=password],input[type=url],input[type=email],input[type=number],textarea,select{padding:6px;border:1px solid #9aa5b1;border-radius:4px;font:inherit;min-width:320px;background:#fff}
textarea{min-height:80px}.submit-row{padding:12px;background:#f8f8f8;text-align:right}
[aria-invalid=true]{border-color:#b3261e}.error{color:#b3261e;font-weight:600;margin:.25rem 0}
.summary{border:3px solid #b3261e;padding:.75rem 1rem;background:#fff;margin:1rem 0}.summary h2{font-size:1.1em;margin:0 0 .5rem}.summary a{color:#b3261e}
button.default,input.default,button.primary,input.primary,main button[type=submit]:not(.small):not(.delete){background:var(--console-accent);color:var(--console-accent-text);border:0;border-radius:4px;padding:8px 16px;cursor:pointer;font:inherit;font-weight:600}
button.delete{background:#ba2121;color:#fff;border:0;border-radius:4px;padding:4px 10px;cursor:pointer}button.small{padding:2px 8px;font:inherit;font-size:13px;cursor:pointer}
.errorlist{color:#ba2121;margin:4px 0;padding:0;list-style:none}.back{display:inline-block;margin:0 0 12px}
.login{max-width:400px;margin:64px auto;background:#fff;border:1px solid #e5e5e5;border-radius:4px;overflow:hidden}
.login h1{margin:0;padding:14px;background:var(--console-accent);color:var(--console-accent-text);font-size:18px;font-weight:400;text-align:center}
.login form,.login .intro,.login .links{padding:0 20px}.login form{padding-top:20px;padding-bottom:20px}.login .intro{padding-top:16px}
.login .row{margin-bottom:14px}.login label{display:block;margin-bottom:4px}.login input{width:100%;min-width:0}
.login .notice{background:#dfd;border:1px solid #b3d9b3;padding:8px 10px;border-radius:4px}
code,pre{background:#f0f0f0;padding:1px 4px;border-radius:3px;word-break:break-all}pre{padding:12px;white-space:pre-wrap;overflow-wrap:anywhere}
.progress{height:12px;background:#e4e7eb;border-radius:6px;overflow:hidden}.progress>div{height:100%;background:var(--console-accent)}
.changelog{border-left:3px solid #d9e2ec;padding-left:12px}.trap{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:0 0 12px}.toolbar label{display:block;font-size:11px;color:#666;text-transform:uppercase}
.toolbar>div{min-width:0;max-width:100%}.toolbar input[type=search],.toolbar select{min-width:0;width:auto;max-width:100%}.pager{display:flex;gap:12px;align-items:center;margin:8px 0}
.scroll{overflow-x:auto;max-width:100%}.actions form{display:inline-block;margin:0 8px 8px 0}
.note{color:var(--console-muted);margin:0 0 1rem}article{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:.75rem;margin:0 0 .75rem;overflow-wrap:anywhere}
article h2{font-size:1rem;margin:0 0 .25rem}article dl{display:grid;grid-template-columns:max-content 1fr;gap:0 .75rem;margin:0 0 .5rem;color:var(--console-muted);font-size:.9rem}article dd{margin:0}
article pre{font:inherit;margin:0;background:none}.kind{font-size:.8rem;background:#e2e8f0;border-radius:.25rem;padding:0 .35rem;margin-left:.35rem}
@media (max-width:700px){#header,body>header,.breadcrumbs,#content{padding-left:12px;padding-right:12px}main{padding:16px 12px}.login{margin:24px auto}
input[type=text],input[type=password],input[type=url],input[type=email],input[type=number],textarea,select{min-width:0;width:100%}
form.aligned .row{flex-direction:column;gap:4px}form.aligned label.name{width:auto}th,td{padding:6px}
.scroll table,.scroll caption,.scroll tbody,.scroll tr,.scroll td{display:block;width:100%}.scroll thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.scroll tr{border-bottom:2px solid #e5e5e5;padding:4px 0}.scroll td{border:0;padding:3px 8px;overflow-wrap:anywhere}
.scroll td[data-label]:not([data-label=""])::before{content:attr(data-label);display:block;font-size:11px;color:#666;text-transform:uppercase}}
`;

/** The kit's stylesheet with a console's variables. */
export function consoleStylesheet(vars: ThemeVars = {}): string {
  const merged = { ...DEFAULTS, ...vars };
  const declarations = Object.entries(merged)
    .map(([name, value]) => `${property(name)}:${value}`)
    .join(';');
  return `:root{${declarations}}${RULES}`;
}

/** Where a console's stylesheet is served: beside its home (`/admin/` → `/admin/theme.css`). */
export const themePath = (home: string) => `${home.endsWith('/') ? home : `${home}/`}theme.css`;

/**
 * The route that serves a console's stylesheet (registered with the console's pages; a browser asset,
 * left out of the API document). One stylesheet per console, so the browser caches it across its pages.
 */
export function consoleThemeRoute<S extends string = 'none'>(console: { home: string; theme?: { vars?: ThemeVars } }, security: S = 'none' as S): Route<S> {
  const body = consoleStylesheet(console.theme?.vars);
  return {
    method: 'GET',
    path: themePath(console.home),
    summary: 'Console stylesheet',
    documented: false,
    security,
    credentials: [],
    operationId: `ConsoleTheme${console.home.replace(/[^A-Za-z0-9]+/g, '_')}`,
    reply: (): Reply => ({ kind: 'text', contentType: 'text/css; charset=utf-8', body, headers: { 'cache-control': 'public, max-age=300' } }),
    response: { description: 'The stylesheet (CSS)', contentType: 'text/css' },
  };
}

import { html, raw, type Raw } from '../../../lib/html';
import { CSRF_FIELD } from '../../core/csrf';

/** The admin console's page frame: Django admin's look (header bar, breadcrumbs, modules), no external assets. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,"Segoe UI",system-ui,Roboto,"Helvetica Neue",Arial,sans-serif;color:#333;background:#f8f8f8}
a{color:#447e9b;text-decoration:none}a:hover{color:#036}
#header{display:flex;justify-content:space-between;align-items:center;padding:10px 40px;background:#417690;color:#ffc}
#header h1{margin:0;font-size:18px;font-weight:400}#header h1 a{color:#f5dd5d}
#user-tools{font-size:12px;text-transform:uppercase;letter-spacing:.5px}#user-tools form{display:inline}
#user-tools a{color:#fff;text-decoration:underline}#user-tools button{background:none;border:0;color:#fff;cursor:pointer;font:inherit;text-transform:uppercase;text-decoration:underline}
.breadcrumbs{background:#79aec8;padding:10px 40px;color:#c4dce8}.breadcrumbs a{color:#fff}
#content{padding:20px 40px}h2.title{font-size:20px;font-weight:300;color:#666;margin:0 0 16px}
.banner{padding:10px 14px;margin:0 0 16px;border-radius:4px}.banner.error{background:#ba2121;color:#fff}.banner.warning{background:#ffc;border:1px solid #e6db55}.banner.ok{background:#dfd;border:1px solid #b3d9b3}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:20px}
.module{background:#fff;border:1px solid #e5e5e5;border-radius:4px;margin-bottom:20px;overflow:hidden}
.module h2,.module caption{margin:0;padding:8px 12px;font-size:13px;font-weight:400;text-align:left;background:#79aec8;color:#fff;text-transform:uppercase;letter-spacing:.5px}
.module .body{padding:10px 12px}.stat{font-size:28px;font-weight:300;color:#417690}
table{width:100%;border-collapse:collapse}th,td{padding:8px 12px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
thead th{background:#f6f6f6;color:#666;font-size:11px;text-transform:uppercase}td.num{text-align:right;font-variant-numeric:tabular-nums}
.on{color:#2e7d32;font-weight:600}.off{color:#999}
form.aligned .row{display:flex;gap:16px;padding:10px 0;border-bottom:1px solid #eee}form.aligned label.name{width:240px;font-weight:600}
form.aligned .help{color:#999;font-size:12px}input[type=text],input[type=password],input[type=url],input[type=email],textarea,select{padding:6px;border:1px solid #ccc;border-radius:4px;font:inherit;min-width:320px}
textarea{min-height:80px}.submit-row{padding:12px;background:#f8f8f8;text-align:right}
button.default,input.default{background:#417690;color:#fff;border:0;border-radius:4px;padding:8px 16px;cursor:pointer;font:inherit}
button.delete{background:#ba2121;color:#fff;border:0;border-radius:4px;padding:4px 10px;cursor:pointer}
.errorlist{color:#ba2121;margin:4px 0;padding:0;list-style:none}.back{display:inline-block;margin:0 0 12px}
.login{max-width:380px;margin:80px auto;background:#fff;border:1px solid #eaeaea;border-radius:4px}
.login h1{margin:0;padding:14px;background:#417690;color:#f5dd5d;font-size:18px;font-weight:400;text-align:center}.login form{padding:20px}
.login .row{margin-bottom:14px}.login label{display:block;font-weight:600;margin-bottom:4px}.login input{width:100%;min-width:0}
code{background:#f0f0f0;padding:1px 4px;border-radius:3px;word-break:break-all}
`;

export interface PageOptions {
  title: string;
  siteName: string;
  /** Signed in as (absent on the sign-in page). */
  user?: string;
  csrfToken?: string;
  breadcrumbs?: { label: string; href?: string }[];
  banners?: { level: 'error' | 'warning' | 'ok'; text: string }[];
}

export function csrfInput(token: string | undefined): Raw {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token ?? ''}" />`;
}

export function adminPage(opts: PageOptions, body: Raw): string {
  const crumbs = opts.breadcrumbs?.length
    ? html`<div class="breadcrumbs">
        <a href="/admin/">Home</a>${opts.breadcrumbs.map((b) => html` › ${b.href ? html`<a href="${b.href}">${b.label}</a>` : b.label}`)}
      </div>`
    : '';
  const tools = opts.user
    ? html`<div id="user-tools">
        Welcome, <strong>${opts.user}</strong>. <a href="/swagger/">API docs</a> /
        <form method="post" action="/admin/logout/">${csrfInput(opts.csrfToken)}<button type="submit">Log out</button></form>
      </div>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.title} | ${opts.siteName} administration</title>
        <style>
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        <div id="header">
          <h1><a href="/admin/">${opts.siteName} administration</a></h1>
          ${tools}
        </div>
        ${crumbs}
        <div id="content">
          ${(opts.banners ?? []).map((b) => html`<div class="banner ${b.level}" role="${b.level === 'error' ? 'alert' : 'status'}">${b.text}</div>`)} ${body}
        </div>
      </body>
    </html>`.value;
}

export const yesNo = (v: boolean) => (v ? html`<span class="on">✔ on</span>` : html`<span class="off">✘ off</span>`);

/** A list of a console page: a captioned table, or its empty message. */
export function table(caption: string, head: string[], rows: unknown[][], empty = 'None.'): Raw {
  return html`<div class="module">
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
                    ${r.map((c) => html`<td>${c}</td>`)}
                  </tr>`,
              )
            : html`<tr>
                <td colspan="${head.length}">${empty}</td>
              </tr>`
        }
      </tbody>
    </table>
  </div>`;
}

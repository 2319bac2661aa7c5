import { html, raw, type Raw } from '../../../lib/html';
import { CSRF_FIELD } from '../../core/csrf';

/** The customer workspace's page frame: no external assets, readable on a phone, keyboard-usable. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2933;background:#f5f7fa}
a{color:#0b5cad}a:focus,button:focus,input:focus{outline:3px solid #f0b429;outline-offset:2px}
header{display:flex;flex-wrap:wrap;gap:12px;justify-content:space-between;align-items:center;padding:12px 24px;background:#102a43;color:#fff}
header a{color:#fff}header nav a{margin-right:16px}header form{display:inline}
header button{background:none;border:1px solid #fff;color:#fff;border-radius:4px;padding:4px 10px;cursor:pointer;font:inherit}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 16px}h2{font-size:18px;margin:24px 0 8px}
.card{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:16px;margin-bottom:16px;overflow-x:auto}
table{width:100%;border-collapse:collapse}th,td{padding:8px;border-bottom:1px solid #e4e7eb;text-align:left;vertical-align:top}
th{font-size:12px;text-transform:uppercase;color:#52606d}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:600}
.ok{background:#e3f9e5;color:#05400a}.bad{background:#ffe3e3;color:#610404}.warn{background:#fff3c4;color:#513c06}
.banner{padding:10px 14px;border-radius:6px;margin-bottom:16px}.banner.error{background:#ffe3e3;color:#610404}.banner.ok{background:#e3f9e5;color:#05400a}
label{display:block;font-weight:600;margin:12px 0 4px}input[type=text],input[type=email],input[type=password],input[type=url]{width:100%;max-width:420px;padding:8px;border:1px solid #9aa5b1;border-radius:4px;font:inherit}
button.primary,input.primary{background:#0b5cad;color:#fff;border:0;border-radius:4px;padding:8px 16px;cursor:pointer;font:inherit;margin-top:12px}
button.small{padding:2px 8px;font:inherit;font-size:13px;cursor:pointer}
code,pre{background:#f0f4f8;border-radius:3px;padding:1px 4px;word-break:break-all}pre{padding:12px;white-space:pre-wrap}
.login{max-width:420px;margin:48px auto}.muted{color:#52606d;font-size:13px}
.progress{height:12px;background:#e4e7eb;border-radius:6px;overflow:hidden}.progress>div{height:100%;background:#0b5cad}
.changelog{border-left:3px solid #d9e2ec;padding-left:12px}
`;

export interface WorkspacePageOptions {
  title: string;
  /** Signed in as (absent on the sign-in pages). */
  user?: { email: string; organisation: string };
  csrfToken?: string;
  banners?: { level: 'error' | 'ok'; text: string }[];
  /** Extra <head> content (e.g. a refresh while a build runs). */
  head?: Raw;
}

export const csrfInput = (token: string | undefined): Raw => html`<input type="hidden" name="${CSRF_FIELD}" value="${token ?? ''}" />`;

export function workspacePage(opts: WorkspacePageOptions, body: Raw): string {
  const nav = opts.user
    ? html`<nav aria-label="Workspace"><a href="/workspace/">Licences</a><a href="/workspace/branding/">Branding &amp; builds</a></nav>
        <div>
          ${opts.user.email} · ${opts.user.organisation}
          <form method="post" action="/workspace/logout/">${csrfInput(opts.csrfToken)}<button type="submit">Sign out</button></form>
        </div>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.title} | Licence workspace</title>
        <style>
          ${raw(STYLE)}
        </style>
        ${opts.head ?? ''}
      </head>
      <body>
        <header>
          <strong><a href="/workspace/">Licence workspace</a></strong>
          ${nav}
        </header>
        <main>
          ${(opts.banners ?? []).map((b) => html`<div class="banner ${b.level}" role="${b.level === 'error' ? 'alert' : 'status'}">${b.text}</div>`)} ${body}
        </main>
      </body>
    </html>`.value;
}

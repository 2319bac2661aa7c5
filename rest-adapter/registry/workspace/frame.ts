import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { workspaceSessionCredential } from '../../../subgraphs/registry/licensing/credential';
import { consoleError, consolePage, csrfInput, when as kitWhen, type ConsoleFrame, type PageOptions } from '../../console/kit';
import type { AnyRouteInput as RouteInput, Reply } from '../../core/route';

/**
 * The customer workspace on the console kit (rest-adapter/console/): its frame (stylesheet, header
 * with the workspace's navigation and the signed-in user), its pages and error pages, and what its
 * page modules (account.ts, licences.ts, branding.ts) share.
 */

export type WorkspaceSecurity = 'workspaceSession' | 'none';

/** The customer workspace's look: no external assets, readable on a phone, keyboard-usable. */
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
.module{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:16px;margin-bottom:16px;overflow-x:auto}.card .module{border:0;padding:0}
caption{text-align:left;font-size:18px;font-weight:700;margin:0 0 8px}.back{display:inline-block;margin:0 0 12px}
.toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:12px 0}.toolbar label{margin:0;font-size:12px;text-transform:uppercase;color:#52606d}
.toolbar input[type=search],.toolbar select{padding:6px;border:1px solid #9aa5b1;border-radius:4px;font:inherit;max-width:100%}
button.default{background:#0b5cad;color:#fff;border:0;border-radius:4px;padding:6px 14px;cursor:pointer;font:inherit}.pager{display:flex;gap:12px;align-items:center;margin:8px 0}
`;

function workspaceHeader(frame: ConsoleFrame, opts: { user?: string; csrfToken?: string }): Raw {
  const nav = opts.user
    ? html`<nav aria-label="Workspace"><a href="/workspace/">Licences</a><a href="/workspace/branding/">Branding &amp; builds</a></nav>
        <div>
          ${opts.user}
          <form method="post" action="${frame.logoutPath}">${csrfInput(opts.csrfToken)}<button type="submit">Sign out</button></form>
        </div>`
    : '';
  return html`<header>
    <strong><a href="${frame.home}">${frame.defaultSiteName}</a></strong>
    ${nav}
  </header>`;
}

export const WORKSPACE: ConsoleFrame = {
  home: '/workspace/',
  label: '',
  loginPath: '/workspace/login/',
  loginNext: false,
  logoutPath: '/workspace/logout/',
  defaultSiteName: 'Licence workspace',
  theme: {
    style: STYLE,
    title: (page, _siteName, frame) => `${page} | ${frame.defaultSiteName}`,
    header: workspaceHeader,
    container: 'main',
    breadcrumbs: false,
  },
};

export const SESSION = [workspaceSessionCredential] as const;
export const COOKIE_PATH = '/workspace/';
export const TAGS = ['Workspace'];

/** A form's fields as the body parser gives them. */
export type FormBody = Record<string, string | string[]>;
export const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '');
export const uuid = z.string().regex(/^[0-9a-f-]{36}$/i);
export const pageQuery = z.object({ saved: z.string().optional(), token: z.string().optional(), password: z.string().optional() });

export const baseUrl = ({ req, config }: RouteInput) => (config.PUBLIC_URL_REGISTRY ? null : `${req.protocol}://${req.get('host')}`);
/** The workspace shows dates to the minute. */
export const when = (value: string | null | undefined) => kitWhen(value, { seconds: false });
export const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

export interface Account {
  email: string;
  name?: string;
  organisation: { name: string; entitlements?: string[] };
}

/** The header's "signed in as". */
export const userOf = (account: Account) => `${account.email} · ${account.organisation.name}`;

/** A page of the workspace (its user: the account the page's operation answered). */
export const page = (input: RouteInput, opts: Omit<PageOptions, 'breadcrumbs'>, body: Raw): Reply => consolePage(input, WORKSPACE, opts, body);

export const toLogin = (): Reply => ({ kind: 'redirect', status: 302, location: '/workspace/login/' });

/** A page's failure: not signed in → the sign-in page; anything else on a page of its own. */
export const pageError = (title: string) => consoleError(WORKSPACE, title, { back: { href: '/workspace/', label: 'Back to the workspace' } });

/** The pages of a signed-in user: the session cookie only (a licence key means nothing here). */
export const SIGNED_IN = { security: 'workspaceSession' as const, credentials: SESSION, tags: TAGS };

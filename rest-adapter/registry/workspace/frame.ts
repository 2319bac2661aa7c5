import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { workspaceSessionCredential } from '../../../subgraphs/registry/licensing/credential';
import { consoleError, consolePage, csrfInput, when as kitWhen, type ConsoleFrame, type PageOptions } from '../../console/kit';
import type { AnyRouteInput as RouteInput, Reply } from '../../core/route';
import type { WorkspaceUserFragment } from '../operations/types.generated';

/**
 * The customer workspace on the console kit (rest-adapter/console/): its frame (theme variables, header
 * with the workspace's navigation and the signed-in user), its pages and error pages, and what its
 * page modules (account.ts, licences.ts, branding.ts) share.
 */

export type WorkspaceSecurity = 'workspaceSession' | 'none';

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
    // the customer workspace's look on the kit's stylesheet: readable on a phone, keyboard-usable
    vars: {
      header: '#102a43',
      headerText: '#fff',
      accent: '#0b5cad',
      link: '#0b5cad',
      background: '#f5f7fa',
      text: '#1f2933',
      muted: '#52606d',
      fontSize: '15px',
      width: '1100px',
    },
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

/** The header's "signed in as": the account every signed-in page's operation selects (the WorkspaceUser fragment). */
export const userOf = (account: WorkspaceUserFragment) => `${account.email} · ${account.organisation.name}`;

/** A page of the workspace (its user: the account the page's operation answered). */
export const page = (input: RouteInput, opts: Omit<PageOptions, 'breadcrumbs'>, body: Raw): Reply => consolePage(input, WORKSPACE, opts, body);

export const toLogin = (): Reply => ({ kind: 'redirect', status: 302, location: '/workspace/login/' });

/** A page's failure: not signed in → the sign-in page; anything else on a page of its own. */
export const pageError = (title: string) => consoleError(WORKSPACE, title, { back: { href: '/workspace/', label: 'Back to the workspace' } });

/** The pages of a signed-in user: the session cookie only (a licence key means nothing here). */
export const SIGNED_IN = { security: 'workspaceSession' as const, credentials: SESSION, tags: TAGS };

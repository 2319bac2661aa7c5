import { z } from 'zod';
import { licenceKeyCredential } from '../../../subgraphs/registry/licensing/credential';
import { consolePages } from '../../console/pages';
import type { Route, RouteInput as Input } from '../../core/route';
import { accountPages } from './account';
import { brandingPages } from './branding';
import { consoleThemeRoute } from '../../console/theme';
import { baseUrl, uuid, WORKSPACE, type WorkspaceSecurity } from './frame';
import { licencePages } from './licences';
import { route } from '../operation';

export type { WorkspaceSecurity } from './frame';

/**
 * The customer workspace at /workspace/ (docs/contracts/licence-registry.md §1): organisation users sign in
 * (session cookie `workspace_session`, HttpOnly, SameSite=Lax, path /workspace/; every form carries
 * the CSRF token), see their licences, deployments and releases, download artifacts through
 * presigned links the session authorises (§5.3), read the compose manifest of each release, and,
 * with the enterprise-whitelabel entitlement, brand and build their own frontend. Every page is a
 * persisted operation run as the signed-in user.
 *
 * Its pages are built on the console kit (frame.ts) and registered by module: sign-in and passwords
 * (account.ts), licences, deployments and releases (licences.ts), branding and builds (branding.ts).
 * They are a browser application, not the API: each says `documented: false` (left out of the
 * registry's API document and its conformance replay).
 */

export const workspaceRoutes: Route<WorkspaceSecurity | 'licenceKey'>[] = [
  route({
    method: 'GET',
    path: '/api/v1/custom-frontends/:buildId/download',
    summary: "Download the organisation's custom frontend: 302 to a presigned link",
    description:
      'The compose manifest of an organisation with a succeeded whitelabel build names its custom frontend archive here, in place of the ' +
      "generic frontend artifact. Licence key of one of the organisation's licences; another organisation's build: 404.",
    tags: ['Artifacts'],
    security: 'licenceKey',
    credentials: [licenceKeyCredential],
    operation: 'CustomFrontendDownload',
    params: z.object({ buildId: uuid }),
    variables: (input: Input<{ buildId: string }>) => ({ buildId: input.params.buildId, baseUrl: baseUrl(input) }),
    respond: (data) => ({ kind: 'redirect', status: 302, location: data.url }),
    response: { status: 302, description: 'Redirect to the presigned link', headers: { Location: 'Presigned object-storage URL' } },
    errors: [404, 409],
  }),
  ...consolePages<WorkspaceSecurity | 'licenceKey'>([
    { name: 'theme', pages: [consoleThemeRoute(WORKSPACE)] },
    { name: 'account', pages: accountPages },
    { name: 'licences', pages: licencePages },
    { name: 'branding', pages: brandingPages },
  ]),
];

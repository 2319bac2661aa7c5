import type { Request, RequestHandler, Response, NextFunction } from 'express';
import { ruruHTML } from 'ruru/server';
import { serveStatic } from 'ruru/static';
import { htmlSecurityHeaders, inlineScriptHashes } from '../lib/security-headers';

export const IDE_STATIC_PATH = '/ruru-static/';

const INITIAL_QUERY = `# Send your API key in the Headers tab: {"Authorization": "Bearer <API_KEY>"}
query Competitions {
  competitions { code name seasons }
}
`;

/**
 * The GraphQL IDE (ruru, bundling GraphiQL), served entirely from this process: no CDN, no
 * request leaves the machine. `allowed` gates it (administrator credentials outside development).
 */
export function graphqlIde(opts: { endpoint: string; allowed: (req: Request) => Promise<boolean> }): { page: RequestHandler; assets: RequestHandler } {
  const html = ruruHTML({
    endpoint: opts.endpoint,
    staticPath: IDE_STATIC_PATH, // ruru types every client option as required; the ones left out keep their defaults
    clientConfig: { initialQuery: INITIAL_QUERY } as Parameters<typeof ruruHTML>[0]['clientConfig'],
  });
  const assets = serveStatic(IDE_STATIC_PATH);
  // ruru's two inline scripts (its configuration, the editor's workers) by hash; everything else from here
  const headers = htmlSecurityHeaders({ 'script-src': inlineScriptHashes(html) });
  return {
    page: async (req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' || !req.accepts('html') || req.accepts(['json', 'html']) === 'json') return next();
      if (!(await opts.allowed(req))) {
        res.status(401).setHeader('www-authenticate', 'Basic realm="GraphQL IDE (administrator API key as password)", charset="UTF-8"');
        res.type('text/plain').send('The GraphQL IDE needs an administrator API key: sign in with any user name and the key as password.\n');
        return;
      }
      headers(req, res, () => res.type('html').send(html));
    },
    assets: (req, res, next) => assets(req, res, next),
  };
}

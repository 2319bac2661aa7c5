import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one path serves: a body (with an ETag and Last-Modified, answering conditional GETs with 304), or a status. */
export type FeedFile = { body: string; contentType?: string; lastModified?: string } | { status: number };

/**
 * A local HTTP peer for the football feed: paths mapped to files that a test can change, break or cut
 * short between passes. It answers conditional GETs as a static file server does, and records every
 * request's path and headers.
 */
export interface FeedServer {
  url(path: string): string;
  set(path: string, file: FeedFile): void;
  requests: { path: string; headers: IncomingHttpHeaders; status: number }[];
  close(): Promise<void>;
}

export async function startFeedServer(files: Record<string, FeedFile> = {}): Promise<FeedServer> {
  const served = new Map(Object.entries(files));
  const requests: FeedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const file = served.get(path);
    const answer = (status: number, headers: Record<string, string> = {}, body?: string) => {
      requests.push({ path, headers: req.headers, status });
      res.writeHead(status, headers);
      res.end(body);
    };
    if (!file) return answer(404, { 'content-type': 'text/plain' }, 'not found');
    if ('status' in file) return answer(file.status, { 'content-type': 'text/plain' }, 'failing on purpose');
    const etag = `"${createHash('sha1').update(file.body).digest('hex')}"`;
    const lastModified = file.lastModified ?? 'Tue, 24 Nov 2026 10:00:00 GMT';
    if (req.headers['if-none-match'] === etag) return answer(304, { etag, 'last-modified': lastModified });
    answer(200, { 'content-type': file.contentType ?? 'application/json', etag, 'last-modified': lastModified }, file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, file) => void served.set(path, file),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fixture list in football.json: `pairs` of team names from `start` on, one match a day at 15:00 UTC-ish local time. */
export function seasonJson(pairs: [string, string][], start: Date, scores?: ([number, number] | undefined)[]): string {
  const day = 86_400_000;
  return JSON.stringify({
    name: 'Feed test season',
    matches: pairs.map(([team1, team2], i) => {
      const d = new Date(start.getTime() + i * day);
      return {
        round: `Matchday ${i + 1}`,
        date: d.toISOString().slice(0, 10),
        time: '15:00',
        team1,
        team2,
        ...(scores?.[i] ? { score: { ft: scores[i] } } : {}),
      };
    }),
  });
}

import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { badInput } from '../../../lib/errors';

/**
 * Fetches a user-supplied URL once, safely (server-side request forgery): http(s) only, no
 * credentials in the URL, the host's every address checked (loopback, private, link-local, CGNAT,
 * multicast and reserved ranges refused unless `allowPrivate`), the connection pinned to the checked
 * address (no DNS rebinding between check and connect), each redirect checked again (at most
 * `maxRedirects`), a byte limit enforced while reading and one deadline for the whole fetch.
 */
export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Tests only (a local server): private and loopback addresses allowed. */
  allowPrivate: boolean;
}

export interface Fetched {
  bytes: Buffer;
  /** The URL the bytes came from, after redirects. */
  url: string;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a user-supplied URL must not reach (IPv4-mapped IPv6 judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const refused = (url: string, why: string) => badInput(`Cannot fetch ${url.slice(0, 200)}: ${why}.`);

async function checkedAddress(url: URL, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (addresses.length === 0) throw refused(url.href, 'the host name does not resolve');
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) throw refused(url.href, 'the host is a private, loopback or link-local address');
  return addresses[0];
}

function parse(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput(`Not a URL: ${String(raw).slice(0, 200)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(raw, 'only http and https URLs are fetched');
  if (url.username || url.password) throw refused(raw, 'URLs with credentials are not fetched');
  return url;
}

export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<Fetched> {
  const deadline = Date.now() + opts.timeoutMs;
  let url = parse(raw);
  for (let hop = 0; ; hop++) {
    const target = await checkedAddress(url, opts.allowPrivate);
    const answer = await once(url, target, opts, deadline);
    if ('bytes' in answer) return { bytes: answer.bytes, url: url.href };
    if (hop >= opts.maxRedirects) throw refused(raw, `more than ${opts.maxRedirects} redirects`);
    url = parse(new URL(answer.location, url).href);
  }
}

function once(
  url: URL,
  target: { address: string; family: number },
  opts: SafeFetchOptions,
  deadline: number,
): Promise<{ bytes: Buffer } | { location: string }> {
  // connect to the address checked above, whatever the name resolves to by now
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(refused(url.href, 'timed out'));
    const req = client.get(url, { lookup: pinned, timeout: remaining, headers: { accept: 'image/*', 'user-agent': 'licence-registry-asset-fetch' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ location: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return reject(refused(url.href, `the server answered ${status}`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        return reject(refused(url.href, `larger than ${opts.maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) {
          res.destroy();
          reject(refused(url.href, `larger than ${opts.maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve({ bytes: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(refused(url.href, err.message)));
    });
    const timer = setTimeout(() => req.destroy(new Error('timed out')), remaining);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => reject(refused(url.href, err.message)));
  });
}

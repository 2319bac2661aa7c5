import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPrivateAddress, safeFetch, type SafeFetchOptions } from './safe-fetch';

let server: Server;
let base: string;
const LOCAL: SafeFetchOptions = { maxBytes: 1000, timeoutMs: 3000, maxRedirects: 2, allowPrivate: true };

beforeAll(async () => {
  server = createServer((req, res) => {
    const hops = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hops) return void res.writeHead(302, { location: Number(hops[1]) > 0 ? `/hop/${Number(hops[1]) - 1}` : '/small' }).end();
    if (req.url === '/small') return void res.end(Buffer.alloc(10, 1));
    // no Content-Length: the limit holds while reading
    if (req.url === '/big') {
      res.write(Buffer.alloc(800));
      return void res.end(Buffer.alloc(800));
    }
    if (req.url === '/slow') {
      const timer = setTimeout(() => res.end('late'), 5000);
      return void res.on('close', () => clearTimeout(timer));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('admits %s', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('safeFetch', () => {
  it('refuses loopback, private and localhost hosts unless allowed', async () => {
    await expect(safeFetch(`${base}/small`, { ...LOCAL, allowPrivate: false })).rejects.toThrow(/private, loopback or link-local/);
    await expect(safeFetch(`http://localhost:1/x`, { ...LOCAL, allowPrivate: false })).rejects.toThrow(/private, loopback or link-local/);
    await expect(safeFetch('http://169.254.169.254/latest/meta-data/', { ...LOCAL, allowPrivate: false })).rejects.toThrow(/private/);
  });

  it('refuses other schemes and URLs with credentials', async () => {
    await expect(safeFetch('file:///etc/passwd', LOCAL)).rejects.toThrow(/only http and https/);
    await expect(safeFetch(`http://user:secret@127.0.0.1/`, LOCAL)).rejects.toThrow(/credentials/);
    await expect(safeFetch('not a url', LOCAL)).rejects.toThrow(/Not a URL/);
  });

  it('follows redirects up to the limit, and no further', async () => {
    expect((await safeFetch(`${base}/hop/1`, LOCAL)).bytes.length).toBe(10);
    await expect(safeFetch(`${base}/hop/3`, LOCAL)).rejects.toThrow(/more than 2 redirects/);
  });

  it('stops reading past the byte limit, answers the server’s refusals and gives up at the deadline', async () => {
    await expect(safeFetch(`${base}/big`, LOCAL)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(safeFetch(`${base}/gone`, LOCAL)).rejects.toThrow(/the server answered 404/);
    await expect(safeFetch(`${base}/slow`, { ...LOCAL, timeoutMs: 300 })).rejects.toThrow(/timed out/);
  });
});

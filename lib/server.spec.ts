import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePorts } from './server';

describe('freePorts', () => {
  it('hands out distinct ports below the ephemeral range (where no outgoing connection takes them), each free to bind', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await freePorts(30);
    expect(new Set(ports).size).toBe(30);
    for (const port of ports) expect(port >= 10_000 && port < low).toBe(true);
    for (const port of ports.slice(0, 5)) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

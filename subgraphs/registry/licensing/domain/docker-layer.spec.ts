import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { buildImageArchive, inspectImageArchive } from './docker-archive';
import { addImageLayer } from './docker-layer';

const run = promisify(execFile);
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'docker-layer-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('addImageLayer', () => {
  it('puts one layer on a base image archive: skopeo reads it, the base layers unchanged, the config carries the new env', async () => {
    const created = new Date('2026-01-01T00:00:00Z');
    const base = buildImageArchive({
      repoTag: 'finance-node/frontend:1.2.0',
      created,
      files: [
        { path: 'app/dist/finance-web/index.html', content: '<title>Generic</title>' },
        { path: 'app/big.bin', content: Buffer.alloc(3_000_000, 7) },
      ],
      config: { Env: ['PATH=/usr/bin', 'WEB_PORT=8080'], Cmd: ['node', 'dist/rest-adapter/finance/web-main.js'], Labels: { a: 'b' } },
    });
    const out = join(dir, 'branded.docker.tar.gz');
    const added = await addImageLayer(
      Readable.from([base.archive.subarray(0, 1000), base.archive.subarray(1000)]),
      { gzipped: true },
      {
        repoTag: 'finance-node/frontend-acme:1.2.0-0123abcd',
        created,
        files: [{ path: 'usr/share/finance-node-web/index.html', content: '<title>Acme Pay</title>' }],
        env: { WEB_ROOT: '/usr/share/finance-node-web' },
        labels: { 'org.opencontainers.image.title': 'Acme' },
      },
      createWriteStream(out),
    );
    expect(added).toMatchObject({ repoTag: 'finance-node/frontend-acme:1.2.0-0123abcd', layers: 2 });
    // what the registry checks at upload: every layer matches its diff_id, the id is the config's digest
    const info = await inspectImageArchive(createReadStream(out), { gzipped: true });
    expect(info).toEqual({ repoTags: ['finance-node/frontend-acme:1.2.0-0123abcd'], imageId: added.imageId, layers: 2 });

    // and a container tool reads it (podman 4.3 and skopeo take the archive gunzipped)
    const plain = join(dir, 'branded.docker.tar');
    writeFileSync(plain, gunzipSync(readFileSync(out)));
    const inspected = JSON.parse((await run('skopeo', ['inspect', '--config', `docker-archive:${plain}`])).stdout);
    expect(inspected.config.Env).toEqual(['PATH=/usr/bin', 'WEB_PORT=8080', 'WEB_ROOT=/usr/share/finance-node-web']);
    expect(inspected.config.Cmd).toEqual(['node', 'dist/rest-adapter/finance/web-main.js']);
    expect(inspected.config.Labels).toEqual({ a: 'b', 'org.opencontainers.image.title': 'Acme' });
    expect(inspected.rootfs.diff_ids).toHaveLength(2);
    writeFileSync(join(dir, 'base.tar'), gunzipSync(base.archive));
    const baseConfig = JSON.parse((await run('skopeo', ['inspect', '--config', `docker-archive:${join(dir, 'base.tar')}`])).stdout);
    expect(inspected.rootfs.diff_ids[0]).toBe(baseConfig.rootfs.diff_ids[0]);
  }, 60_000);

  it('refuses a base that is not an image archive', async () => {
    await expect(
      addImageLayer(
        Readable.from([Buffer.alloc(1024)]),
        { gzipped: false },
        { repoTag: 'a/b:c', created: new Date(), files: [] },
        createWriteStream(join(dir, 'x')),
      ),
    ).rejects.toThrow(/no manifest\.json/);
  });
});

/**
 * A custom frontend build makes a runnable image, under podman: the vendor ships a finance-node release
 * with the real images (`shipRelease`, as `registry releases ship` does); an organisation with the
 * whitelabel entitlement saves a branding and builds; the build's image for that release version (the
 * release's generic frontend image plus one layer with the branded client) is loaded with podman
 * (gunzipped: podman 4.3 cannot load a gzipped archive) and run; GET / answers the branded client.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ContainerEngine } from '../../../../subgraphs/registry/licensing/container-engine';
import { freePorts } from '../../../../lib/server';
import { WHITELABEL_ENTITLEMENT } from '../../../../subgraphs/registry/licensing/domain/branding';
import { shipRelease } from '../../../../subgraphs/registry/licensing/release-images';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { describeContainers, engine, images, removeByPrefix, waitForStatus } from '../../../support/platform/containers';

jest.setTimeout(20 * 60_000);
const prefix = `mwl${randomBytes(3).toString('hex')}`;
let t: TestApp<'registry'>;
let work: string;

describeContainers('custom frontend image', () => {
  afterAll(async () => {
    removeByPrefix(prefix);
    await t?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is the release’s frontend image plus the branded client, and it runs', async () => {
    work = mkdtempSync(join(tmpdir(), 'whitelabel-image-'));
    t = await startTestApp({}, { products: ['registry'] });
    const { licensing } = t.app.services;
    const { backend, frontend } = images();
    await shipRelease(
      licensing,
      await ContainerEngine.detect(),
      { product: 'finance-node', version: '9.0.0', channel: 'stable', images: { backend, frontend } },
      'test',
    );
    const organisationId = (await licensing.catalogue.createOrganisation({ name: 'Acme Ltd', slug: 'acme-ltd' }, 'test')).id;
    await licensing.builds.grant(organisationId, WHITELABEL_ENTITLEMENT, 'test');
    await licensing.branding.save(
      organisationId,
      { displayName: 'Acme Pay', primaryColor: '#0b5fff', accentColor: '#8e2c9a', publicUrl: 'https://pay.acme.example/app/' },
      'test',
    );
    const { id } = await licensing.builds.request(organisationId, 'test');
    let build = await licensing.builds.find(id);
    for (let i = 0; i < 2400 && build!.status !== 'succeeded' && build!.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      build = await licensing.builds.find(id);
    }
    expect(build!.error).toBeNull();
    const image = build!.frontendImages.find((i) => i.version === '9.0.0')!;
    expect(image.image).toMatch(/^finance-node\/frontend-acme-ltd:9\.0\.0-[0-9a-f]{8}$/);

    const chunks: Buffer[] = [];
    for await (const chunk of await licensing.objects.get(image.key)) chunks.push(chunk as Buffer);
    const archive = join(work, 'frontend.docker.tar');
    writeFileSync(archive, gunzipSync(Buffer.concat(chunks)));
    const loaded = await engine(['load', '-i', archive]);
    expect(loaded).toContain('finance-node/frontend-acme-ltd:9.0.0-');
    const [port] = await freePorts(1);
    await engine(['run', '-d', '--name', `${prefix}-frontend`, '-p', `127.0.0.1:${port}:8080`, `localhost/${image.image}`]);
    await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200, 120_000);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/app\/$/);
    const html = await page.text();
    expect(html).toContain('Acme Pay');
    expect(html).toContain('<meta name="theme-color" content="#0b5fff" />');
    await engine(['rmi', '-f', `localhost/${image.image}`]).catch(() => undefined);
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildFinanceClient, contrastRatio, InvalidBranding, textColorOn } from './build';

/** buildFinanceClient: a real Vite build with a branding baked into the page, manifest and styles. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'finance-web-build-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('buildFinanceClient', () => {
  it('bakes in the name, colours, logo and favicon, under the base path asked for', async () => {
    const outDir = join(dir, 'acme');
    const result = await buildFinanceClient({
      outDir,
      basePath: '/wallet/',
      branding: {
        displayName: 'Acme <Pay>',
        primaryColor: '#ffcc00',
        accentColor: '#123456',
        logo: { bytes: PNG, contentType: 'image/png' },
        favicon: { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), contentType: 'image/svg+xml' },
      },
    });
    expect(result.outDir).toBe(outDir);
    expect(result.files).toEqual(expect.arrayContaining(['index.html', 'manifest.webmanifest', 'branding.css', 'logo.png', 'favicon.svg']));
    expect(result.files.filter((f) => /^assets\/index-[\w-]+\.js$/.test(f))).toHaveLength(1);
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('<title>Acme &#60;Pay&#62;</title>');
    expect(html).toContain('<base href="/wallet/"');
    expect(html).toContain('<meta name="theme-color" content="#ffcc00" />');
    expect(html).toContain('<link rel="icon" href="favicon.svg" type="image/svg+xml" />');
    expect(readFileSync(join(outDir, 'logo.png'))).toEqual(PNG);
    // yellow takes black text: the contrast the page's buttons and header need
    expect(readFileSync(join(outDir, 'branding.css'), 'utf8')).toBe(':root{--primary:#ffcc00;--on-primary:#000000;--accent:#123456}\n');
    expect(JSON.parse(readFileSync(join(outDir, 'manifest.webmanifest'), 'utf8'))).toMatchObject({
      name: 'Acme <Pay>',
      start_url: '/wallet/',
      scope: '/wallet/',
      theme_color: '#ffcc00',
      icons: [{ src: 'logo.png', type: 'image/png' }],
    });
    const script = result.files.find((f) => f.endsWith('.js'))!;
    expect(result.firstLoadGzipBytes).toBeGreaterThan(gzipSync(readFileSync(join(outDir, script))).length);
    // the budget of the first load: index.html, its entry script, the shared chunk it preloads and the styles
    expect(result.firstLoadGzipBytes).toBeLessThanOrEqual(100 * 1024);
  }, 60_000);

  it('builds the generic client without a branding, with an icon drawn from the name', async () => {
    const result = await buildFinanceClient({ outDir: join(dir, 'generic') });
    expect(result.files).toEqual(expect.arrayContaining(['logo.svg', 'favicon.svg']));
    const html = readFileSync(join(dir, 'generic', 'index.html'), 'utf8');
    expect(html).toContain('<title>Finance</title>');
    expect(html).toContain('<base href="/app/"');
    expect(readFileSync(join(dir, 'generic', 'logo.svg'), 'utf8')).toContain('fill="#1d4ed8"');
  }, 60_000);

  it('skips a build whose inputs have not changed, and builds again when they have or a file is gone', async () => {
    const outDir = join(dir, 'cached');
    const first = await buildFinanceClient({ outDir });
    const built = statSync(join(outDir, 'index.html')).mtimeMs;
    // the same inputs: the files are those of the first build, untouched
    expect(await buildFinanceClient({ outDir })).toEqual(first);
    expect(statSync(join(outDir, 'index.html')).mtimeMs).toBe(built);
    // another branding: built again, with it
    await buildFinanceClient({ outDir, branding: { displayName: 'Other', primaryColor: '#112233', accentColor: '#445566' } });
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toContain('<title>Other</title>');
    // back to the generic one, then a file of the build removed: built again
    await buildFinanceClient({ outDir });
    unlinkSync(join(outDir, 'branding.css'));
    await buildFinanceClient({ outDir });
    expect(readFileSync(join(outDir, 'branding.css'), 'utf8')).toContain('#1d4ed8');
  }, 120_000);

  it('refuses a bad colour, image type or base path before building anything', async () => {
    const good = { displayName: 'Acme', primaryColor: '#000000', accentColor: '#ffffff' };
    await expect(buildFinanceClient({ outDir: join(dir, 'x'), branding: { ...good, primaryColor: 'red' } })).rejects.toThrow(InvalidBranding);
    await expect(buildFinanceClient({ outDir: join(dir, 'x'), branding: { ...good, logo: { bytes: PNG, contentType: 'image/gif' } } })).rejects.toThrow(
      /PNG, SVG or JPEG/,
    );
    await expect(buildFinanceClient({ outDir: join(dir, 'x'), branding: { ...good, displayName: ' ' } })).rejects.toThrow(InvalidBranding);
    await expect(buildFinanceClient({ outDir: join(dir, 'x'), basePath: 'app' })).rejects.toThrow(/basePath/);
  });

  it('computes WCAG contrast', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1d4ed8', '#ffffff')).toBeGreaterThan(4.5);
    expect([textColorOn('#1d4ed8'), textColorOn('#ffcc00')]).toEqual(['#ffffff', '#000000']);
  });
});

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildAndroidPackage, buildIosProject, createAndroidSigningKey, MobileToolsMissing, missingAndroidTools } from '.';
import { IOS_ICONS } from './ios';

/**
 * The mobile packages, checked with the platforms' own tools: the APK with `apksigner verify`,
 * `aapt dump badging` and `dexdump` (Debian's; .ci/run installs them), the Xcode project archive by
 * its structure (pbxproj, Info.plist with the bundle id, an AppIcon set with every size).
 */
const run = promisify(execFile);
const PNG_LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const branding = { displayName: "Acme's Wallet", primaryColor: '#0b5fff', accentColor: '#ff6a00', logo: { bytes: PNG_LOGO, contentType: 'image/png' } };
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'mobile-packages-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

describe('buildAndroidPackage', () => {
  it('builds a signed APK that opens the client in a WebView, with the name and an icon per density', async () => {
    const missing = await missingAndroidTools();
    if (missing.length)
      throw new Error(`This test needs ${missing.join(', ')} (apt-get install aapt zipalign apksigner android-framework-res dexdump, as .ci/run does).`);
    const outFile = join(dir, 'acme.apk');
    const apk = await buildAndroidPackage({ outFile, branding, clientUrl: 'https://wallet.acme.example/app/', applicationId: 'com.acme.wallet' });
    const bytes = readFileSync(outFile);
    expect(apk).toEqual({ file: outFile, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, kind: 'apk' });

    const verified = await run('apksigner', ['verify', '--verbose', outFile]);
    expect(verified.stdout).toMatch(/^Verifies$/m);
    expect(verified.stdout).toMatch(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);

    const badging = (await run('aapt', ['dump', 'badging', outFile])).stdout;
    expect(badging).toMatch(/^package: name='com\.acme\.wallet'/m);
    expect(badging).toContain("application-label:'Acme's Wallet'");
    expect(badging).toContain("launchable-activity: name='com.acme.wallet.MainActivity'");
    expect(badging).toContain("uses-permission: name='android.permission.INTERNET'");
    expect(badging).toContain("densities: '160' '240' '320' '480' '640'");

    const dex = (await run('dexdump', ['-d', outFile])).stdout;
    expect(dex).toContain("Class descriptor  : 'Lcom/acme/wallet/MainActivity;'");
    expect(dex).toContain("Superclass        : 'Landroid/app/Activity;'");
    expect(dex).toContain('const-string v1, "https://wallet.acme.example/app/"');
    expect(dex).toContain('Landroid/webkit/WebView;.loadUrl:(Ljava/lang/String;)V');
    expect(dex).toContain('Landroid/webkit/WebSettings;.setJavaScriptEnabled:(Z)V');
  }, 120_000);

  it('signs every build of an organisation with its one key and a growing versionCode, https only', async () => {
    const missing = await missingAndroidTools();
    if (missing.length) throw new Error(`This test needs ${missing.join(', ')} (as .ci/run installs them).`);
    const made = await createAndroidSigningKey({ commonName: 'Acme Ltd' });
    expect(made.keystore.length).toBeGreaterThan(1000);
    const keystore = join(dir, 'org.p12');
    writeFileSync(keystore, made.keystore, { mode: 0o600 });
    const signingKey = { keystore, password: made.password, alias: made.alias };
    const build = (versionCode: number) =>
      buildAndroidPackage({
        outFile: join(dir, `acme-${versionCode}.apk`),
        branding,
        clientUrl: 'https://wallet.acme.example/app/',
        applicationId: 'com.acme.wallet',
        signingKey,
        versionCode,
      });
    const [first, second] = [await build(1), await build(2)];
    const certificate = async (file: string) =>
      /certificate SHA-256 digest: ([0-9a-f]{64})/.exec((await run('apksigner', ['verify', '--print-certs', file])).stdout)![1];
    expect(await certificate(second.file)).toBe(await certificate(first.file));
    const versionCode = async (file: string) => Number(/versionCode='(\d+)'/.exec((await run('aapt', ['dump', 'badging', file])).stdout)![1]);
    expect([await versionCode(first.file), await versionCode(second.file)]).toEqual([1, 2]);
    const manifest = (await run('aapt', ['dump', 'xmltree', second.file, 'AndroidManifest.xml'])).stdout;
    // android:usesCleartextTraffic(0x010104ec)=(type 0x12)0x0: false
    expect(manifest).toMatch(/usesCleartextTraffic\(0x010104ec\)=\(type 0x12\)0x0\b/);
    await expect(
      buildAndroidPackage({ outFile: join(dir, 'http.apk'), branding, clientUrl: 'http://localhost:8000/app/', applicationId: 'com.acme.wallet', signingKey }),
    ).rejects.toThrow(/https/);
  }, 180_000);

  it('refuses a malformed application id, and says which tools are missing when they are', async () => {
    await expect(buildAndroidPackage({ outFile: join(dir, 'x.apk'), branding, clientUrl: 'https://a.example/', applicationId: 'wallet' })).rejects.toThrow(
      /applicationId/,
    );
    const path = process.env.PATH;
    process.env.PATH = join(dir, 'no-tools');
    try {
      await expect(
        buildAndroidPackage({ outFile: join(dir, 'x.apk'), branding, clientUrl: 'https://a.example/', applicationId: 'com.acme.wallet' }),
      ).rejects.toThrow(MobileToolsMissing);
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('buildIosProject', () => {
  it('writes an Xcode project archive: pbxproj, Info.plist with the bundle id, the WKWebView shell and every AppIcon size', async () => {
    const outFile = join(dir, 'acme-ios.tar.gz');
    const result = await buildIosProject({ outFile, branding, clientUrl: 'https://wallet.acme.example/app/', bundleId: 'com.acme.wallet' });
    const bytes = readFileSync(outFile);
    expect(result).toEqual({ file: outFile, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
    const root = join(dir, 'ios');
    await run('mkdir', ['-p', root]);
    await run('tar', ['xzf', outFile, '-C', root]);
    const project = join(root, 'AcmesWallet');
    const read = (path: string) => readFileSync(join(project, path), 'utf8');

    const pbxproj = read('AcmesWallet.xcodeproj/project.pbxproj');
    expect(pbxproj).toMatch(/^\/\/ !\$\*UTF8\*\$!/);
    expect(pbxproj).toContain('PRODUCT_BUNDLE_IDENTIFIER = com.acme.wallet;');
    expect(pbxproj).toContain('ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;');
    expect(pbxproj).toContain('productType = "com.apple.product-type.application";');
    // every object the project refers to is defined once
    const defined = [...pbxproj.matchAll(/^\t\t([0-9A-F]{24}) .*= \{/gm)].map((m) => m[1]);
    expect(new Set(defined).size).toBe(defined.length);
    const referenced = new Set([...pbxproj.matchAll(/\b([0-9A-F]{24})\b/g)].map((m) => m[1]));
    expect([...referenced].filter((id) => !defined.includes(id))).toEqual([]);

    const plist = read('AcmesWallet/Info.plist');
    expect(plist).toContain('<key>CFBundleIdentifier</key>\n  <string>com.acme.wallet</string>');
    expect(plist).toContain('<key>CFBundleDisplayName</key>\n  <string>Acme&#39;s Wallet</string>');
    expect(plist).toContain('<key>FinanceClientURL</key>\n  <string>https://wallet.acme.example/app/</string>');
    expect(plist).not.toContain('NSAllowsArbitraryLoads');
    expect(read('AcmesWallet/WebViewController.swift')).toContain('WKWebView(frame: .zero, configuration: configuration)');

    const icons = JSON.parse(read('AcmesWallet/Assets.xcassets/AppIcon.appiconset/Contents.json'));
    expect(icons.images).toHaveLength(IOS_ICONS.length);
    const sizes = icons.images.map((i: { size: string; scale: string; idiom: string }) => `${i.idiom} ${i.size} ${i.scale}`).sort();
    expect(sizes).toEqual(expect.arrayContaining(['iphone 60x60 3x', 'ipad 83.5x83.5 2x', 'ios-marketing 1024x1024 1x', 'ipad 76x76 2x', 'iphone 20x20 2x']));
    for (const image of icons.images as { size: string; scale: string; filename: string }[]) {
      const expected = Math.round(parseFloat(image.size) * parseInt(image.scale, 10));
      expect([image.filename, pngSize(readFileSync(join(project, 'AcmesWallet/Assets.xcassets/AppIcon.appiconset', image.filename)))]).toEqual([
        image.filename,
        [expected, expected],
      ]);
    }
    expect(read('README.md')).toContain('xcodebuild -project AcmesWallet.xcodeproj');
  }, 60_000);

  it('writes the same project as a .zip', async () => {
    const outFile = join(dir, 'acme-ios.zip');
    await buildIosProject({ outFile, branding, clientUrl: 'https://wallet.acme.example/app/', bundleId: 'com.acme.wallet' });
    const root = join(dir, 'ios-zip');
    // Info-ZIP's unzip (.ci/run installs it) tests every entry's CRC, then extracts
    expect((await run('unzip', ['-t', outFile])).stdout).toMatch(/No errors detected/);
    await run('unzip', ['-q', outFile, '-d', root]);
    const plist = readFileSync(join(root, 'AcmesWallet/AcmesWallet/Info.plist'), 'utf8');
    expect(plist).toContain('<key>CFBundleIdentifier</key>\n  <string>com.acme.wallet</string>');
    expect(plist).not.toContain('NSAllowsArbitraryLoads');
    const icons = JSON.parse(readFileSync(join(root, 'AcmesWallet/AcmesWallet/Assets.xcassets/AppIcon.appiconset/Contents.json'), 'utf8'));
    for (const image of icons.images as { filename: string }[])
      expect(
        readFileSync(join(root, 'AcmesWallet/AcmesWallet/Assets.xcassets/AppIcon.appiconset', image.filename))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
  });

  it('refuses a plain-HTTP client address: App Transport Security keeps no exception', async () => {
    await expect(
      buildIosProject({ outFile: join(dir, 'http.zip'), branding, clientUrl: 'http://localhost:8000/app/', bundleId: 'com.acme.wallet' }),
    ).rejects.toThrow(/https/);
  });

  it('refuses a malformed bundle id and an archive name it does not write', async () => {
    await expect(buildIosProject({ outFile: join(dir, 'x.tar.gz'), branding, clientUrl: 'https://a.example/', bundleId: 'wallet' })).rejects.toThrow(
      /bundleId/,
    );
    await expect(buildIosProject({ outFile: join(dir, 'x.rar'), branding, clientUrl: 'https://a.example/', bundleId: 'com.a.b' })).rejects.toThrow(
      /\.zip or a \.tar\.gz/,
    );
  });
});

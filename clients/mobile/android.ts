import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ClientBranding } from '../finance-web/build';
import { webViewActivityDex } from './dex';
import { iconPng } from './icons';

const run = promisify(execFile);

/** What the vendor installs for APK builds (Debian's packages; a JDK brings keytool). */
export const ANDROID_TOOLS_INSTALL = 'apt-get install aapt zipalign apksigner android-framework-res default-jre-headless';

/** The Android tools are not installed here. The message is for the vendor's operators, never for a customer. */
export class MobileToolsMissing extends Error {
  constructor(readonly missing: string[]) {
    super(`Cannot build an APK: ${missing.join(', ')} missing (${ANDROID_TOOLS_INSTALL}).`);
    this.name = 'MobileToolsMissing';
  }
}

/** A public https address (the mobile shells allow no cleartext traffic): anything else is refused. */
export function httpsClientUrl(clientUrl: string): URL {
  let url: URL;
  try {
    url = new URL(clientUrl);
  } catch {
    throw new TypeError('clientUrl must be an https URL');
  }
  if (url.protocol !== 'https:' || url.username || url.password) throw new TypeError('clientUrl must be an https URL (the app allows no cleartext traffic)');
  return url;
}

/** Debian's android-framework-res: the platform resources aapt links against (API 29). */
export const FRAMEWORK_RES = '/usr/share/android-framework-res/framework-res.apk';
const DENSITIES: [string, number][] = [
  ['mdpi', 48],
  ['hdpi', 72],
  ['xhdpi', 96],
  ['xxhdpi', 144],
  ['xxxhdpi', 192],
];

/** Whether an executable of that name is on PATH. */
function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export async function missingAndroidTools(): Promise<string[]> {
  const missing = ['aapt', 'zipalign', 'apksigner', 'keytool'].filter((tool) => !onPath(tool));
  if (!existsSync(FRAMEWORK_RES)) missing.push('android-framework-res');
  return missing;
}

const xml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** aapt's string resources: \\, ' and " are escaped with a backslash, and so are @ and ? at the start. */
const resourceString = (s: string) =>
  s
    .replace(/[\\'"]/g, (c) => `\\${c}`)
    .replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/^([@?])/, '\\$1');

export const APPLICATION_ID = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;

/** A signing key for the APK: the caller's PKCS#12 keystore file, or a new one made for this build. */
export interface AndroidSigningKey {
  keystore: string;
  password: string;
  alias: string;
}

/**
 * A new PKCS#12 signing key (RSA 2048, valid 10,000 days) made with keytool: the bytes of the keystore
 * and its password. An organisation makes one, keeps it (sealed) and signs every build with it, so an
 * update installs over the last one.
 */
export async function createAndroidSigningKey(opts: { commonName: string }): Promise<{ keystore: Buffer; password: string; alias: string }> {
  if (!onPath('keytool')) throw new MobileToolsMissing(['keytool']);
  const work = await mkdtemp(join(tmpdir(), 'finance-apk-key-'));
  try {
    const key = { keystore: join(work, 'signing.p12'), password: randomBytes(24).toString('hex'), alias: 'app' };
    await generateKeystore(key, opts.commonName);
    return { keystore: await readFile(key.keystore), password: key.password, alias: key.alias };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function generateKeystore(key: AndroidSigningKey, commonName: string): Promise<void> {
  const dname = `CN=${commonName.replace(/[,+="<>#;\\]/g, ' ')}`;
  await run('keytool', [
    '-genkeypair',
    '-keystore',
    key.keystore,
    '-storetype',
    'PKCS12',
    '-storepass',
    key.password,
    '-keypass',
    key.password,
    '-alias',
    key.alias,
    '-keyalg',
    'RSA',
    '-keysize',
    '2048',
    '-validity',
    '10000',
    '-dname',
    dname,
  ]);
}

export async function buildApk(opts: {
  outFile: string;
  branding: ClientBranding;
  clientUrl: string;
  applicationId: string;
  signingKey?: AndroidSigningKey;
  /** Grows with every build of the application (Android installs an update only over a lower versionCode). */
  versionCode?: number;
}): Promise<{ file: string; sha256: string; size: number; kind: 'apk' }> {
  if (!APPLICATION_ID.test(opts.applicationId) || opts.applicationId.length > 150) throw new TypeError('applicationId must look like com.example.wallet');
  const url = httpsClientUrl(opts.clientUrl);
  const versionCode = opts.versionCode ?? 1;
  if (!Number.isInteger(versionCode) || versionCode < 1 || versionCode > 2_100_000_000)
    throw new TypeError('versionCode must be an integer from 1 to 2100000000');
  const missing = await missingAndroidTools();
  if (missing.length) throw new MobileToolsMissing(missing);
  const work = await mkdtemp(join(tmpdir(), 'finance-apk-'));
  try {
    const { branding } = opts;
    const manifest = `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${opts.applicationId}" android:versionCode="${versionCode}" android:versionName="1.${versionCode}">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="29" />
  <uses-permission android:name="android.permission.INTERNET" />
  <application android:label="@string/app_name" android:icon="@mipmap/ic_launcher" android:theme="@style/AppTheme" android:allowBackup="false" android:usesCleartextTraffic="false">
    <activity android:name=".MainActivity" android:exported="true" android:configChanges="orientation|screenSize|keyboardHidden">
      <intent-filter>
        <action android:name="android.intent.action.MAIN" />
        <category android:name="android.intent.category.LAUNCHER" />
      </intent-filter>
    </activity>
  </application>
</manifest>
`;
    await writeFile(join(work, 'AndroidManifest.xml'), manifest);
    const values = join(work, 'res', 'values');
    await mkdir(values, { recursive: true });
    await writeFile(
      join(values, 'strings.xml'),
      `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="app_name">${resourceString(branding.displayName)}</string>\n  <string name="client_url">${xml(url.href)}</string>\n</resources>\n`,
    );
    await writeFile(
      join(values, 'styles.xml'),
      `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <color name="primary">${branding.primaryColor}</color>
  <color name="accent">${branding.accentColor}</color>
  <style name="AppTheme" parent="@android:style/Theme.Material.Light.NoActionBar">
    <item name="android:colorPrimary">@color/primary</item>
    <item name="android:colorPrimaryDark">@color/primary</item>
    <item name="android:colorAccent">@color/accent</item>
    <item name="android:statusBarColor">@color/primary</item>
  </style>
</resources>
`,
    );
    for (const [density, size] of DENSITIES) {
      const dir = join(work, 'res', `mipmap-${density}`);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'ic_launcher.png'), iconPng(branding, size));
    }
    const unsigned = join(work, 'unsigned.apk');
    await run('aapt', ['package', '-f', '-M', join(work, 'AndroidManifest.xml'), '-S', join(work, 'res'), '-I', FRAMEWORK_RES, '-F', unsigned]);
    await writeFile(join(work, 'classes.dex'), webViewActivityDex(`${opts.applicationId}.MainActivity`, url.href));
    await run('aapt', ['add', unsigned, 'classes.dex'], { cwd: work });
    const aligned = join(work, 'aligned.apk');
    await run('zipalign', ['-f', '4', unsigned, aligned]);
    let key = opts.signingKey;
    if (!key) {
      // no key given: a new one for this build (an update to an installed app needs the same key)
      key = { keystore: join(work, 'signing.p12'), password: randomBytes(24).toString('hex'), alias: 'app' };
      await generateKeystore(key, opts.applicationId);
    }
    const signed = join(work, 'signed.apk');
    await run('apksigner', [
      'sign',
      '--ks',
      key.keystore,
      '--ks-pass',
      `pass:${key.password}`,
      '--ks-key-alias',
      key.alias,
      '--min-sdk-version',
      '21',
      '--out',
      signed,
      aligned,
    ]);
    await mkdir(dirname(opts.outFile), { recursive: true });
    await copyFile(signed, opts.outFile);
    const bytes = await readFile(opts.outFile);
    return { file: opts.outFile, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, kind: 'apk' };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

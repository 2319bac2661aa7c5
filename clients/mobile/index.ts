import type { ClientBranding } from '../finance-web/build';
import { buildApk, type AndroidSigningKey } from './android';
import { buildIosArchive } from './ios';

export { ANDROID_TOOLS_INSTALL, createAndroidSigningKey, MobileToolsMissing, missingAndroidTools } from './android';

/** A signed, installable APK (Debian's aapt/zipalign/apksigner/android-framework-res) that opens the
 *  branded client at `clientUrl`, or, if the tools cannot produce one, throws MobileToolsMissing.
 *  Without `signingKey` the APK is signed with a key made for this build. https only: no cleartext traffic. */
export function buildAndroidPackage(opts: {
  outFile: string;
  branding: ClientBranding;
  clientUrl: string;
  applicationId: string;
  signingKey?: AndroidSigningKey;
  versionCode?: number;
}): Promise<{ file: string; sha256: string; size: number; kind: 'apk' | 'project' }> {
  return buildApk(opts);
}

/** A complete Xcode project archive (.zip or .tar.gz, by outFile's name): WKWebView shell, bundle id, icons in every size. */
export function buildIosProject(opts: {
  outFile: string;
  branding: ClientBranding;
  clientUrl: string;
  bundleId: string;
}): Promise<{ file: string; sha256: string; size: number }> {
  return buildIosArchive(opts);
}

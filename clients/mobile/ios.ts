import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tar } from '../../lib/tar';
import type { ClientBranding } from '../finance-web/build';
import { httpsClientUrl } from './android';
import { iconPng } from './icons';
import { zip } from './zip';

/** Every icon of an iOS AppIcon set (iPhone, iPad, App Store): point size, scale, idiom. */
export const IOS_ICONS: { size: number; scale: number; idiom: 'iphone' | 'ipad' | 'ios-marketing' }[] = [
  { size: 20, scale: 2, idiom: 'iphone' },
  { size: 20, scale: 3, idiom: 'iphone' },
  { size: 29, scale: 2, idiom: 'iphone' },
  { size: 29, scale: 3, idiom: 'iphone' },
  { size: 40, scale: 2, idiom: 'iphone' },
  { size: 40, scale: 3, idiom: 'iphone' },
  { size: 60, scale: 2, idiom: 'iphone' },
  { size: 60, scale: 3, idiom: 'iphone' },
  { size: 20, scale: 1, idiom: 'ipad' },
  { size: 20, scale: 2, idiom: 'ipad' },
  { size: 29, scale: 1, idiom: 'ipad' },
  { size: 29, scale: 2, idiom: 'ipad' },
  { size: 40, scale: 1, idiom: 'ipad' },
  { size: 40, scale: 2, idiom: 'ipad' },
  { size: 76, scale: 1, idiom: 'ipad' },
  { size: 76, scale: 2, idiom: 'ipad' },
  { size: 83.5, scale: 2, idiom: 'ipad' },
  { size: 1024, scale: 1, idiom: 'ios-marketing' },
];

export const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const xml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A Swift string literal. */
const swift = (s: string) => JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, '\\u{$1}');

/** The Xcode target's name: the display name's letters and digits (a valid product and folder name). */
export function targetName(displayName: string): string {
  const name = displayName.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
  return /^[A-Za-z]/.test(name) ? name : `App${name}`.slice(0, 24);
}

/** Stable 24-hex-digit object ids for project.pbxproj. */
const id = (label: string) => createHash('sha1').update(label).digest('hex').slice(0, 24).toUpperCase();

function colorComponents(hex: string) {
  const c = (i: number) => (parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255).toFixed(3);
  return { red: c(0), green: c(1), blue: c(2), alpha: '1.000' };
}

export function iosProjectFiles(opts: { branding: ClientBranding; clientUrl: string; bundleId: string }): { path: string; content: string | Buffer }[] {
  const { branding } = opts;
  const name = targetName(branding.displayName);
  // https only: App Transport Security stays as Apple ships it (no NSAllowsArbitraryLoads)
  const url = httpsClientUrl(opts.clientUrl);
  const files: { path: string; content: string | Buffer }[] = [];
  const add = (path: string, content: string | Buffer) => files.push({ path: `${name}/${path}`, content });

  const images = IOS_ICONS.map((icon) => {
    const pixels = Math.round(icon.size * icon.scale);
    const filename = `icon-${icon.idiom}-${icon.size}@${icon.scale}x.png`;
    return { ...icon, pixels, filename };
  });
  for (const pixels of [...new Set(images.map((i) => i.pixels))]) {
    const png = iconPng(branding, pixels);
    for (const image of images.filter((i) => i.pixels === pixels)) add(`${name}/Assets.xcassets/AppIcon.appiconset/${image.filename}`, png);
  }
  add(
    `${name}/Assets.xcassets/AppIcon.appiconset/Contents.json`,
    JSON.stringify(
      {
        images: images.map((i) => ({ size: `${i.size}x${i.size}`, idiom: i.idiom, filename: i.filename, scale: `${i.scale}x` })),
        info: { version: 1, author: 'xcode' },
      },
      null,
      2,
    ),
  );
  add(`${name}/Assets.xcassets/Contents.json`, JSON.stringify({ info: { version: 1, author: 'xcode' } }, null, 2));
  for (const [colorSet, hex] of [
    ['AccentColor', branding.accentColor],
    ['PrimaryColor', branding.primaryColor],
  ] as const) {
    add(
      `${name}/Assets.xcassets/${colorSet}.colorset/Contents.json`,
      JSON.stringify(
        { colors: [{ idiom: 'universal', color: { 'color-space': 'srgb', components: colorComponents(hex) } }], info: { version: 1, author: 'xcode' } },
        null,
        2,
      ),
    );
  }

  add(
    `${name}/AppDelegate.swift`,
    `import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = WebViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}
`,
  );
  add(
    `${name}/WebViewController.swift`,
    `import UIKit
import WebKit

/// Opens the branded finance web client; its address is FinanceClientURL in Info.plist.
class WebViewController: UIViewController, WKNavigationDelegate {
    private var webView: WKWebView!

    override func loadView() {
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = .default()
        webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = self
        webView.allowsBackForwardNavigationGestures = true
        webView.backgroundColor = UIColor(named: "PrimaryColor")
        view = webView
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let address = Bundle.main.object(forInfoDictionaryKey: "FinanceClientURL") as? String ?? ${swift(url.href)}
        if let url = URL(string: address) {
            webView.load(URLRequest(url: url))
        }
    }

    override var preferredStatusBarStyle: UIStatusBarStyle { .default }
}
`,
  );
  add(
    `${name}/Info.plist`,
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleDevelopmentRegion</key>
  <string>en</string>
  <key>CFBundleDisplayName</key>
  <string>${xml(branding.displayName)}</string>
  <key>CFBundleExecutable</key>
  <string>$(EXECUTABLE_NAME)</string>
  <key>CFBundleIdentifier</key>
  <string>${opts.bundleId}</string>
  <key>CFBundleInfoDictionaryVersion</key>
  <string>6.0</string>
  <key>CFBundleName</key>
  <string>${xml(branding.displayName)}</string>
  <key>CFBundlePackageType</key>
  <string>APPL</string>
  <key>CFBundleShortVersionString</key>
  <string>1.0</string>
  <key>CFBundleVersion</key>
  <string>1</string>
  <key>FinanceClientURL</key>
  <string>${xml(url.href)}</string>
  <key>LSRequiresIPhoneOS</key>
  <true/>
  <key>UILaunchScreen</key>
  <dict>
    <key>UIColorName</key>
    <string>PrimaryColor</string>
  </dict>
  <key>UIRequiredDeviceCapabilities</key>
  <array>
    <string>arm64</string>
  </array>
  <key>UISupportedInterfaceOrientations</key>
  <array>
    <string>UIInterfaceOrientationPortrait</string>
    <string>UIInterfaceOrientationLandscapeLeft</string>
    <string>UIInterfaceOrientationLandscapeRight</string>
  </array>
  <key>UISupportedInterfaceOrientations~ipad</key>
  <array>
    <string>UIInterfaceOrientationPortrait</string>
    <string>UIInterfaceOrientationPortraitUpsideDown</string>
    <string>UIInterfaceOrientationLandscapeLeft</string>
    <string>UIInterfaceOrientationLandscapeRight</string>
  </array>
</dict>
</plist>
`,
  );
  add(`${name}.xcodeproj/project.pbxproj`, pbxproj(name, opts.bundleId));
  add(
    'README.md',
    `# ${branding.displayName} for iOS

An Xcode project: a WKWebView shell that opens ${url.href} (FinanceClientURL in ${name}/Info.plist),
bundle id \`${opts.bundleId}\`, icons for every iPhone, iPad and App Store size in Assets.xcassets.

An .ipa needs Apple's tools and your signing identity, so this archive is the project to build it with:

1. On a Mac with Xcode 15 or later: open \`${name}.xcodeproj\`.
2. Target ${name} → Signing & Capabilities: choose your team (DEVELOPMENT_TEAM); keep the bundle id, or change it to one
   registered to your Apple Developer account.
3. Product → Archive, then Distribute App (App Store Connect, Ad Hoc or Enterprise).

From the command line: \`xcodebuild -project ${name}.xcodeproj -scheme ${name} -configuration Release -archivePath build/${name}.xcarchive archive DEVELOPMENT_TEAM=<team id>\`,
then \`xcodebuild -exportArchive -archivePath build/${name}.xcarchive -exportOptionsPlist <options.plist> -exportPath build\`.
`,
  );
  return files;
}

function pbxproj(name: string, bundleId: string): string {
  const ids = {
    project: id(`${name}:project`),
    mainGroup: id(`${name}:mainGroup`),
    sourceGroup: id(`${name}:sourceGroup`),
    productsGroup: id(`${name}:products`),
    target: id(`${name}:target`),
    product: id(`${name}:product`),
    appDelegate: id(`${name}:AppDelegate.swift`),
    appDelegateBuild: id(`${name}:AppDelegate.swift:build`),
    controller: id(`${name}:WebViewController.swift`),
    controllerBuild: id(`${name}:WebViewController.swift:build`),
    assets: id(`${name}:Assets.xcassets`),
    assetsBuild: id(`${name}:Assets.xcassets:build`),
    infoPlist: id(`${name}:Info.plist`),
    sources: id(`${name}:sources`),
    frameworks: id(`${name}:frameworks`),
    resources: id(`${name}:resources`),
    projectConfigs: id(`${name}:projectConfigs`),
    targetConfigs: id(`${name}:targetConfigs`),
    projectDebug: id(`${name}:projectDebug`),
    projectRelease: id(`${name}:projectRelease`),
    targetDebug: id(`${name}:targetDebug`),
    targetRelease: id(`${name}:targetRelease`),
  };
  const projectSettings = (debug: boolean) => `{
				ALWAYS_SEARCH_USER_PATHS = NO;
				CLANG_ENABLE_MODULES = YES;
				CLANG_ENABLE_OBJC_ARC = YES;
				COPY_PHASE_STRIP = NO;
				DEBUG_INFORMATION_FORMAT = ${debug ? 'dwarf' : '"dwarf-with-dsym"'};
				ENABLE_STRICT_OBJC_MSGSEND = YES;
				${debug ? 'ENABLE_TESTABILITY = YES;\n\t\t\t\tGCC_OPTIMIZATION_LEVEL = 0;\n\t\t\t\tONLY_ACTIVE_ARCH = YES;' : 'ENABLE_NS_ASSERTIONS = NO;\n\t\t\t\tVALIDATE_PRODUCT = YES;'}
				IPHONEOS_DEPLOYMENT_TARGET = 15.0;
				SDKROOT = iphoneos;
				SWIFT_COMPILATION_MODE = ${debug ? 'singlefile' : 'wholemodule'};
				SWIFT_OPTIMIZATION_LEVEL = ${debug ? '"-Onone"' : '"-O"'};
			}`;
  const targetSettings = `{
				ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;
				ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = AccentColor;
				CODE_SIGN_STYLE = Automatic;
				CURRENT_PROJECT_VERSION = 1;
				INFOPLIST_FILE = ${name}/Info.plist;
				LD_RUNPATH_SEARCH_PATHS = (
					"$(inherited)",
					"@executable_path/Frameworks",
				);
				MARKETING_VERSION = 1.0;
				PRODUCT_BUNDLE_IDENTIFIER = ${bundleId};
				PRODUCT_NAME = "$(TARGET_NAME)";
				SWIFT_VERSION = 5.0;
				TARGETED_DEVICE_FAMILY = "1,2";
			}`;
  return `// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 56;
	objects = {

/* Begin PBXBuildFile section */
		${ids.appDelegateBuild} /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = ${ids.appDelegate} /* AppDelegate.swift */; };
		${ids.controllerBuild} /* WebViewController.swift in Sources */ = {isa = PBXBuildFile; fileRef = ${ids.controller} /* WebViewController.swift */; };
		${ids.assetsBuild} /* Assets.xcassets in Resources */ = {isa = PBXBuildFile; fileRef = ${ids.assets} /* Assets.xcassets */; };
/* End PBXBuildFile section */

/* Begin PBXFileReference section */
		${ids.product} /* ${name}.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = ${name}.app; sourceTree = BUILT_PRODUCTS_DIR; };
		${ids.appDelegate} /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
		${ids.controller} /* WebViewController.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = WebViewController.swift; sourceTree = "<group>"; };
		${ids.assets} /* Assets.xcassets */ = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = Assets.xcassets; sourceTree = "<group>"; };
		${ids.infoPlist} /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
/* End PBXFileReference section */

/* Begin PBXFrameworksBuildPhase section */
		${ids.frameworks} /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXGroup section */
		${ids.mainGroup} = {
			isa = PBXGroup;
			children = (
				${ids.sourceGroup} /* ${name} */,
				${ids.productsGroup} /* Products */,
			);
			sourceTree = "<group>";
		};
		${ids.sourceGroup} /* ${name} */ = {
			isa = PBXGroup;
			children = (
				${ids.appDelegate} /* AppDelegate.swift */,
				${ids.controller} /* WebViewController.swift */,
				${ids.assets} /* Assets.xcassets */,
				${ids.infoPlist} /* Info.plist */,
			);
			path = ${name};
			sourceTree = "<group>";
		};
		${ids.productsGroup} /* Products */ = {
			isa = PBXGroup;
			children = (
				${ids.product} /* ${name}.app */,
			);
			name = Products;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		${ids.target} /* ${name} */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = ${ids.targetConfigs} /* Build configuration list for PBXNativeTarget "${name}" */;
			buildPhases = (
				${ids.sources} /* Sources */,
				${ids.frameworks} /* Frameworks */,
				${ids.resources} /* Resources */,
			);
			buildRules = (
			);
			dependencies = (
			);
			name = ${name};
			productName = ${name};
			productReference = ${ids.product} /* ${name}.app */;
			productType = "com.apple.product-type.application";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		${ids.project} /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastSwiftUpdateCheck = 1500;
				LastUpgradeCheck = 1500;
			};
			buildConfigurationList = ${ids.projectConfigs} /* Build configuration list for PBXProject "${name}" */;
			compatibilityVersion = "Xcode 14.0";
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
			);
			mainGroup = ${ids.mainGroup};
			productRefGroup = ${ids.productsGroup} /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				${ids.target} /* ${name} */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		${ids.resources} /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				${ids.assetsBuild} /* Assets.xcassets in Resources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		${ids.sources} /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				${ids.appDelegateBuild} /* AppDelegate.swift in Sources */,
				${ids.controllerBuild} /* WebViewController.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin XCBuildConfiguration section */
		${ids.projectDebug} /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = ${projectSettings(true)};
			name = Debug;
		};
		${ids.projectRelease} /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = ${projectSettings(false)};
			name = Release;
		};
		${ids.targetDebug} /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = ${targetSettings};
			name = Debug;
		};
		${ids.targetRelease} /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = ${targetSettings};
			name = Release;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		${ids.projectConfigs} /* Build configuration list for PBXProject "${name}" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				${ids.projectDebug} /* Debug */,
				${ids.projectRelease} /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		${ids.targetConfigs} /* Build configuration list for PBXNativeTarget "${name}" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				${ids.targetDebug} /* Debug */,
				${ids.targetRelease} /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
/* End XCConfigurationList section */
	};
	rootObject = ${ids.project} /* Project object */;
}
`;
}

/** A complete Xcode project archive (.zip or .tar.gz, by outFile's name): WKWebView shell, bundle id, icons in every size. */
export async function buildIosArchive(opts: {
  outFile: string;
  branding: ClientBranding;
  clientUrl: string;
  bundleId: string;
}): Promise<{ file: string; sha256: string; size: number }> {
  if (!BUNDLE_ID.test(opts.bundleId) || opts.bundleId.length > 155) throw new TypeError('bundleId must look like com.example.wallet');
  const format = /\.(tar\.gz|tgz)$/.test(opts.outFile) ? 'tar.gz' : opts.outFile.endsWith('.zip') ? 'zip' : undefined;
  if (!format) throw new TypeError('the iOS project archive is a .zip or a .tar.gz');
  httpsClientUrl(opts.clientUrl);
  const files = iosProjectFiles(opts);
  const directories = new Set<string>();
  for (const file of files) {
    const segments = file.path.split('/');
    for (let i = 1; i < segments.length; i++) directories.add(`${segments.slice(0, i).join('/')}/`);
  }
  const archive = format === 'zip' ? zip(files, new Date()) : gzipSync(tar([...[...directories].sort().map((path) => ({ path })), ...files], new Date()));
  await mkdir(dirname(opts.outFile), { recursive: true });
  await writeFile(opts.outFile, archive);
  return { file: opts.outFile, sha256: createHash('sha256').update(archive).digest('hex'), size: archive.length };
}

// Runs Vite's build for build.ts in a process of its own (Vite is an ES module, and a build should not
// share the caller's heap). Input: the JSON file named by argv[2] (written by build.ts).
import { readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import { build } from 'vite';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Bakes the branding into the page: title, <base href>, head tags, and the branding files. */
const branding = {
  name: 'finance-branding',
  transformIndexHtml(html) {
    return html
      .replace(/<title>[^<]*<\/title>/, `<title>${spec.titleHtml}</title>`)
      .replace(/<base href="[^"]*"/, `<base href="${spec.basePath}"`)
      .replace('</head>', `${spec.headHtml}\n  </head>`);
  },
  generateBundle() {
    for (const asset of spec.assets) {
      this.emitFile({ type: 'asset', fileName: asset.fileName, source: asset.text ?? readFileSync(asset.sourcePath) });
    }
  },
};

await build({
  root: spec.root,
  base: './',
  configFile: false,
  // never node_modules/.vite: in the image node_modules belongs to root and the services run as `node`
  cacheDir: spec.cacheDir,
  envDir: false,
  logLevel: 'warn',
  define: { __CLIENT_VERSION__: JSON.stringify(spec.version) },
  // Preact's JSX, and no dev-only helpers in the build (prefresh and devtools are off outside `vite dev`)
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false }), branding],
  build: { outDir: spec.outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
});

import { buildFinanceClient, DEFAULT_CLIENT_DIR } from './build';

/** `npm run build`: the generic finance web client into dist/finance-web (served at FRONTEND_URL's path). */
async function main(): Promise<void> {
  const result = await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  console.log(`finance web client: ${result.files.length} files in ${result.outDir}, first load ${(result.firstLoadGzipBytes / 1024).toFixed(1)} kB gzipped`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

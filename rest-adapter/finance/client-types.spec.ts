import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../lib/paths';

const run = promisify(execFile);
const BUILT = join(projectRoot(), 'dist', 'rest-adapter', 'finance', 'client-types.js');

/**
 * The web client's API types (src/api/schema.d.ts) are the node's OpenAPI document as it is now.
 * openapi-typescript's dependencies are ES modules jest cannot load: the check runs the built script
 * (`npm run build` first, as for the other tests that run built code).
 */
describe('the web client API types', () => {
  it('are up to date with the OpenAPI document the node serves (npm run client:types rewrites them)', async () => {
    expect(existsSync(BUILT)).toBe(true);
    const check = await run(process.execPath, [BUILT, '--check'], { cwd: projectRoot() }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(check).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('type-check the client against them (the root tsconfig leaves the browser code to its own)', async () => {
    const tsc = join(projectRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(projectRoot(), 'clients', 'finance-web', 'tsconfig.json')], { cwd: projectRoot() }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { projectRoot } from '../../../lib/paths';

export interface OpenApiValidation {
  valid: boolean;
  /** The OpenAPI version the validator recognised, e.g. "3.1". */
  version: string;
  errors?: unknown;
}

/* @seriousme/openapi-schema-validator is ESM-only, which jest's CommonJS sandbox cannot import: it runs in a child node. */
const VALIDATE = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', async () => {
  const validator = new Validator();
  const res = await validator.validate(JSON.parse(input));
  process.stdout.write(JSON.stringify({ valid: res.valid, version: validator.version, errors: res.errors }));
});
`;

/** Validates an OpenAPI document against the official JSON schema of its version. */
export function validateOpenApi(document: unknown): Promise<OpenApiValidation> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', VALIDATE],
      { cwd: projectRoot(), maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`OpenAPI validator failed: ${stderr || err.message}`));
        resolve(JSON.parse(stdout) as OpenApiValidation);
      },
    );
    child.stdin!.end(JSON.stringify(document));
  });
}

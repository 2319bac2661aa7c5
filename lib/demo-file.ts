import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config';
import { writePrivateFile } from './private-file';

/**
 * Development only: the demo credentials of every product are kept in DATA_DIR/demo-credentials.json
 * (mode 600 from its creation) so that every `npm start` can print working ones. The database still
 * holds only hashes. In production nothing is written: a generated administrator key is shown once.
 */
export const demoFile = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'demo-credentials.json');

export function readDemoFile(config: Pick<Config, 'dataDir'>): Record<string, unknown> {
  const file = demoFile(config);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

/** Writes one product's entries, keeping the others'. */
export function writeDemoFile(config: Pick<Config, 'dataDir'>, entries: Record<string, unknown>): void {
  mkdirSync(config.dataDir, { recursive: true });
  writePrivateFile(demoFile(config), JSON.stringify({ ...readDemoFile(config), ...entries }, null, 2));
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A local S3-compatible server (s3rver) on 127.0.0.1 with one bucket: the S3 protocol without the internet. */
export interface LocalS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = 'registry'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's fixed credentials
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

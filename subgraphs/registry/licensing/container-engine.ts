import { execFile, spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';

const run = promisify(execFile);

export type EngineName = 'docker' | 'podman';

/**
 * The container engine of this machine, as the command line tools see it: docker when its daemon
 * answers, else podman (CONTAINER_ENGINE chooses). Images move between machines as `docker save`
 * archives, gzipped (what the licence registry distributes).
 */
export class ContainerEngine {
  constructor(readonly name: EngineName) {}

  static async detect(preferred = process.env.CONTAINER_ENGINE): Promise<ContainerEngine> {
    if (preferred === 'docker' || preferred === 'podman') return new ContainerEngine(preferred);
    if (preferred) throw new Error(`CONTAINER_ENGINE must be docker or podman, not ${preferred}`);
    try {
      await run('docker', ['info'], { timeout: 20_000 });
      return new ContainerEngine('docker');
    } catch {
      try {
        await run('podman', ['--version']);
        return new ContainerEngine('podman');
      } catch {
        throw new Error('neither docker nor podman is installed here');
      }
    }
  }

  private async cli(args: string[], timeout = 600_000): Promise<string> {
    const { stdout } = await run(this.name, args, { timeout, maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim();
  }

  /** The image's id (`sha256:<config digest>`), or undefined when the engine has no such image. */
  async imageId(image: string): Promise<string | undefined> {
    try {
      const id = await this.cli(['image', 'inspect', '--format', '{{.Id}}', image]);
      return id.startsWith('sha256:') ? id : `sha256:${id}`;
    } catch {
      return undefined;
    }
  }

  async tag(image: string, as: string): Promise<void> {
    await this.cli(['tag', image, as]);
  }

  async untag(image: string): Promise<void> {
    await this.cli(['rmi', image]).catch(() => undefined);
  }

  /** `docker save <image> | gzip > file` (podman: the docker-archive format, so that docker can load it too). */
  async saveGzipped(image: string, file: string): Promise<void> {
    const args = this.name === 'podman' ? ['save', '--format', 'docker-archive', image] : ['save', image];
    const child = spawn(this.name, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // level 1: these archives are hundreds of MB; the time saved is worth more than the few % of bytes
    await pipeline(child.stdout, createGzip({ level: 1 }), createWriteStream(file, { mode: 0o600 }));
    const code = await exited;
    if (code !== 0) throw new Error(`${this.name} save ${image} failed (${code}): ${stderr.trim()}`);
  }

  /**
   * Loads a `docker save` archive, gzipped or not. Podman 4.3 cannot read a gzipped one, so it gets
   * the decompressed archive. Returns what the engine printed (the loaded image's name).
   */
  async load(file: string): Promise<string> {
    if (this.name === 'docker') return this.cli(['load', '-i', file]);
    const dir = await mkdtemp(join(tmpdir(), 'image-load-'));
    try {
      const tarFile = join(dir, 'image.tar');
      const magic = await readMagic(file);
      if (magic[0] === 0x1f && magic[1] === 0x8b) await pipeline(createReadStream(file), createGunzip(), createWriteStream(tarFile));
      return await this.cli(['load', '-i', magic[0] === 0x1f && magic[1] === 0x8b ? tarFile : file]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

async function readMagic(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start: 0, end: 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

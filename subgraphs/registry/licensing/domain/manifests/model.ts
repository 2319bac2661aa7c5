/** What a renderer receives: a release's deployment for one licence, every value resolved. */
export interface ManifestArtifact {
  id: string;
  component: string;
  filename: string;
  size: number;
  sha256: string;
  mediaType: string;
  /** `repository:tag` inside the archive (what `docker load` tags). */
  image: string;
  /** `sha256:<config digest>`: the image id `docker load` yields. */
  imageId: string | null;
  downloadUrl: string;
}

export type ManifestEnvironmentValue = { kind: 'literal'; value: string } | { kind: 'required'; message: string } | { kind: 'optional'; default: string };

export interface ManifestService {
  name: string;
  image: string;
  /** Set when an artifact of the release provides the image. */
  artifact?: ManifestArtifact;
  command?: string[];
  ports: string[];
  environment: { name: string; value: ManifestEnvironmentValue }[];
  dependsOn: string[];
  volumes: string[];
  restart: string;
}

export interface ManifestModel {
  product: { code: string; name: string };
  release: { id: string; version: string; channel: string; publishedAt: string };
  licence: { id: string; maskedKey: string; maintenanceUntil: string; organisation: string };
  registryUrl: string;
  generatedAt: Date;
  services: ManifestService[];
  volumes: string[];
  artifacts: ManifestArtifact[];
  /** The registry's Ed25519 signature of `artifactList(artifacts)`: installers check what they download against it. */
  artifactsSignature?: { algorithm: 'Ed25519'; keyId: string; signature: string };
}

/**
 * What the registry signs of a manifest: one line per artifact, in the manifest's order —
 * `<id> <filename> <size> <sha256> <image> <imageId or ->` — each ending in a newline. The installer
 * rebuilds the same text from `x-artifacts` and checks the signature against the registry's key.
 */
export const artifactList = (artifacts: readonly Pick<ManifestArtifact, 'id' | 'filename' | 'size' | 'sha256' | 'image' | 'imageId'>[]): string =>
  artifacts.map((a) => `${a.id} ${a.filename} ${a.size} ${a.sha256} ${a.image} ${a.imageId ?? '-'}\n`).join('');

export interface RenderedManifest {
  content: string;
  contentType: string;
  filename: string;
}

/** One manifest format: a model in, a file out. */
export type ManifestRenderer = (model: ManifestModel) => RenderedManifest;

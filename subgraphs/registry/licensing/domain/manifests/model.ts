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
}

export interface RenderedManifest {
  content: string;
  contentType: string;
  filename: string;
}

/** One manifest format: a model in, a file out. */
export type ManifestRenderer = (model: ManifestModel) => RenderedManifest;

import { badInput } from '../../../../../lib/errors';
import { renderKubernetesManifest } from '../../finance-node-kubernetes';
import { renderCompose } from './compose';
import type { ManifestRenderer } from './model';

/** Manifest formats by their `format=` name. A new format is one renderer and one line here. */
export const MANIFEST_FORMATS: Record<string, ManifestRenderer> = {
  compose: renderCompose,
  kubernetes: renderKubernetesManifest,
};

export const SUPPORTED_FORMATS = Object.keys(MANIFEST_FORMATS);

export function rendererFor(format: string): ManifestRenderer {
  const renderer = Object.hasOwn(MANIFEST_FORMATS, format) ? MANIFEST_FORMATS[format] : undefined;
  if (!renderer) {
    throw badInput(`Unsupported manifest format "${format}"; supported: ${SUPPORTED_FORMATS.join(', ')}.`, {
      format: [`must be one of: ${SUPPORTED_FORMATS.join(', ')}`],
    });
  }
  return renderer;
}

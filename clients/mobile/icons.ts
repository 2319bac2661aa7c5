import { Resvg } from '@resvg/resvg-js';
import type { ClientBranding } from '../finance-web/build';
import { initialIcon } from '../finance-web/build';

/**
 * Square PNG app icons at any size from the branding: the logo (PNG, JPEG or SVG) centred on the
 * primary colour, or the name's initial when there is no logo. resvg draws both, raster logos through
 * an embedded data: image, so one mechanism serves Android's densities and iOS's icon set.
 */
export function iconSvg(branding: ClientBranding): string {
  if (!branding.logo) return initialIcon(branding).toString('utf8');
  const href = `data:${branding.logo.contentType};base64,${branding.logo.bytes.toString('base64')}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" fill="${branding.primaryColor}"/>` +
    `<image x="64" y="64" width="384" height="384" preserveAspectRatio="xMidYMid meet" xlink:href="${href}" href="${href}"/></svg>`
  );
}

/** The icon as a PNG of size×size pixels, opaque (App Store icons may not be transparent). */
export function iconPng(branding: ClientBranding, size: number): Buffer {
  const rendered = new Resvg(iconSvg(branding), { fitTo: { mode: 'width', value: size }, background: branding.primaryColor }).render();
  return Buffer.from(rendered.asPng());
}

import { Resvg } from '@resvg/resvg-js';
import type { Express } from 'express';

/** The prediction product's icon: a ball on the pitch's green. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#1f7a3f"/>
<circle cx="32" cy="32" r="21" fill="#fff" stroke="#102a1a" stroke-width="3"/>
<polygon points="32,22 41.5,28.9 37.9,40.1 26.1,40.1 22.5,28.9" fill="#102a1a"/>
<path d="M32 22V11M41.5 28.9l10.4-3.4M37.9 40.1l6.5 8.9M26.1 40.1l-6.5 8.9M22.5 28.9l-10.4-3.4" stroke="#102a1a" stroke-width="3"/>
</svg>`;

/** An ICO holding one PNG image (valid since Windows Vista; every current browser reads it). */
function icoOf(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(6 + 16, 18);
  return Buffer.concat([header, png]);
}

let ico: Buffer | undefined;
const faviconIco = () => (ico ??= icoOf(Buffer.from(new Resvg(FAVICON_SVG, { fitTo: { mode: 'width', value: 32 } }).render().asPng()), 32));

/**
 * /favicon.ico (what a browser asks for when a page names no icon: the API reference, the forms)
 * and /favicon.svg (what the surface's own pages link to). Public, cached for a day.
 */
export function mountFavicon(app: Express): void {
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=86400');
    res.type('image/x-icon').send(faviconIco());
  });
  app.get('/favicon.svg', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=86400');
    res.type('image/svg+xml').send(FAVICON_SVG);
  });
}

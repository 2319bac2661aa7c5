import { badInput } from '../../../../lib/errors';

/**
 * How a logo's type is recognised: by its first bytes, never by a file name or a declared type. PNG (its
 * 8-byte signature), JPEG (FF D8 FF), WebP (RIFF, a size, WEBP). Everything else — GIF, SVG, ICO, text
 * named .png — is refused.
 */
const SIGNATURES: { contentType: string; extension: string; matches: (b: Buffer) => boolean }[] = [
  { contentType: 'image/png', extension: 'png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { contentType: 'image/jpeg', extension: 'jpg', matches: (b) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  {
    contentType: 'image/webp',
    extension: 'webp',
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

export function recogniseLogo(bytes: Buffer): { contentType: string; extension: string } {
  const found = SIGNATURES.find((s) => s.matches(bytes));
  if (!found) throw badInput('The logo must be a PNG, JPEG or WebP image (GIF and SVG are refused).', { file: ['Not a PNG, JPEG or WebP image.'] });
  return { contentType: found.contentType, extension: found.extension };
}

import { badInput } from '../../../../lib/errors';
import { DOCUMENT_KINDS, DOCUMENT_TYPES, type DocumentKind, type DocumentType } from '../vocabulary';

/** How each accepted file type (DOCUMENT_TYPES) is recognised: by its first bytes (never by a name or a declared type). */
const SIGNATURE: Record<DocumentType, { extension: string; magic: Buffer }> = {
  'image/jpeg': { extension: 'jpg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  'image/png': { extension: 'png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  'application/pdf': { extension: 'pdf', magic: Buffer.from('%PDF-', 'latin1') },
};
const SIGNATURES: { contentType: string; extension: string; magic: Buffer }[] = DOCUMENT_TYPES.map((contentType) => ({
  contentType,
  ...SIGNATURE[contentType],
}));

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes and checks an uploaded document: strict base64, 1 byte to `maxBytes`, a JPEG, PNG or PDF by its magic bytes. */
export function checkDocument(
  kind: string,
  contentBase64: string,
  maxBytes: number,
): { kind: DocumentKind; bytes: Buffer; contentType: string; extension: string } {
  checkKind(kind);
  const compact = contentBase64.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 !== 0) throw badInput('content_base64 is not valid base64.', { content_base64: ['Not valid base64.'] });
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw badInput('The document is empty.', { content_base64: ['Empty file.'] });
  if (bytes.length > maxBytes) throw badInput(`The document exceeds ${maxBytes} bytes.`, { content_base64: [`At most ${maxBytes} bytes.`] });
  return { kind: kind as DocumentKind, bytes, ...recognise(bytes, 'content_base64') };
}

export function checkKind(kind: string): DocumentKind {
  if (!(DOCUMENT_KINDS as readonly string[]).includes(kind))
    throw badInput(`kind is one of ${DOCUMENT_KINDS.join(', ')}.`, { kind: ['Unknown document kind.'] });
  return kind as DocumentKind;
}

/** The file type from the first bytes (at least MAGIC_BYTES of them when the file has that many). */
export function recognise(head: Buffer, field: string): { contentType: string; extension: string } {
  const type = SIGNATURES.find((s) => head.length >= s.magic.length && head.subarray(0, s.magic.length).equals(s.magic));
  if (!type) throw badInput('The document must be a JPEG, PNG or PDF file.', { [field]: ['Unsupported file type (JPEG, PNG or PDF).'] });
  return { contentType: type.contentType, extension: type.extension };
}

export const MAGIC_BYTES = Math.max(...SIGNATURES.map((s) => s.magic.length));

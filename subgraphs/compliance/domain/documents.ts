import { badInput } from '../../../lib/errors';

/** What a user may upload for a verification (Sumsub's idDocType, lower case). */
export const DOCUMENT_KINDS = ['passport', 'id_card', 'driving_licence', 'residence_permit', 'selfie', 'proof_of_address'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The accepted file types, recognised by their first bytes (never by a name or a declared type). */
const SIGNATURES: { contentType: string; extension: string; magic: Buffer }[] = [
  { contentType: 'image/jpeg', extension: 'jpg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { contentType: 'image/png', extension: 'png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { contentType: 'application/pdf', extension: 'pdf', magic: Buffer.from('%PDF-', 'latin1') },
];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes and checks an uploaded document: strict base64, 1 byte to `maxBytes`, a JPEG, PNG or PDF by its magic bytes. */
export function checkDocument(
  kind: string,
  contentBase64: string,
  maxBytes: number,
): { kind: DocumentKind; bytes: Buffer; contentType: string; extension: string } {
  if (!(DOCUMENT_KINDS as readonly string[]).includes(kind))
    throw badInput(`kind is one of ${DOCUMENT_KINDS.join(', ')}.`, { kind: ['Unknown document kind.'] });
  const compact = contentBase64.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 !== 0) throw badInput('content_base64 is not valid base64.', { content_base64: ['Not valid base64.'] });
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw badInput('The document is empty.', { content_base64: ['Empty file.'] });
  if (bytes.length > maxBytes) throw badInput(`The document exceeds ${maxBytes} bytes.`, { content_base64: [`At most ${maxBytes} bytes.`] });
  const type = SIGNATURES.find((s) => bytes.length >= s.magic.length && bytes.subarray(0, s.magic.length).equals(s.magic));
  if (!type) throw badInput('The document must be a JPEG, PNG or PDF file.', { content_base64: ['Unsupported file type (JPEG, PNG or PDF).'] });
  return { kind: kind as DocumentKind, bytes, contentType: type.contentType, extension: type.extension };
}

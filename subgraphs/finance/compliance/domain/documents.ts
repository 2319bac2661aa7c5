import { badInput, DomainError } from '../../../../lib/errors';

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

/** The content types a binary upload may declare (the bytes still decide). */
export const DOCUMENT_TYPES = SIGNATURES.map((s) => s.contentType);

/**
 * Where the REST surface streams a binary upload before the compliance subgraph takes it (object
 * store key `kyc/uploads/<random uuid>`): the subgraph accepts only keys of this shape.
 */
export const KYC_UPLOAD_PREFIX = 'kyc/uploads/';
export const isKycUploadKey = (key: string) => /^kyc\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key);

export const documentTooLarge = (maxBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', 413, `The document exceeds ${maxBytes} bytes (KYC_DOCUMENT_MAX_BYTES).`, { max_bytes: maxBytes });

import { DomainError } from '../../../lib/errors';

/**
 * The compliance subgraph's published words: the domain, the schema and the REST surface's schemas,
 * uploads and admin pages share them (the REST layer reaches no domain/ module).
 */

/** The levels a user verifies at (identity's KYC_LEVELS without `none`); enhanced requires basic. */
export const VERIFICATION_LEVELS = ['basic', 'enhanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/**
 * A verification's states (Sumsub/Onfido): created `unverified`; documents are uploaded while it is
 * `unverified`, `resubmission_required` or `expired`; submitting makes it `pending` at the provider,
 * which decides `verified`, `rejected` (final) or `resubmission_required` (retry), or holds it
 * `in_review` for a person (the admin console's review); a `verified` level lapses to `expired`.
 */
export const KYC_STATES = ['unverified', 'pending', 'in_review', 'verified', 'rejected', 'resubmission_required', 'expired'] as const;
export type KycState = (typeof KYC_STATES)[number];

/** States awaiting a decision (the provider's or an administrator's). */
export const DECIDING_STATES: readonly KycState[] = ['pending', 'in_review'];

/** What a user may upload for a verification (Sumsub's idDocType, lower case). */
export const DOCUMENT_KINDS = ['passport', 'id_card', 'driving_licence', 'residence_permit', 'selfie', 'proof_of_address'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * The accepted file types: the content types a binary upload may declare (the bytes still decide:
 * domain/documents.ts recognises each type by its first bytes, never by a name or a declared type).
 */
export const DOCUMENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * Where the REST surface streams a binary upload before the compliance subgraph takes it (object
 * store key `kyc/uploads/<random uuid>`): the subgraph accepts only keys of this shape.
 */
export const KYC_UPLOAD_PREFIX = 'kyc/uploads/';
export const isKycUploadKey = (key: string) => /^kyc\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key);

/** 413: a document over KYC_DOCUMENT_MAX_BYTES (the REST surface's streamed upload, and the subgraph's check of it). */
export const documentTooLarge = (maxBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', 413, `The document exceeds ${maxBytes} bytes (KYC_DOCUMENT_MAX_BYTES).`, { max_bytes: maxBytes });

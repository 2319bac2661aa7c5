import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { byteLimit, KYC_LEVELS } from '../../../subgraphs/finance/kernel/contract';
import { z } from 'zod';
import type { Config } from '../../../lib/config';
import { DomainError } from '../../../lib/errors';
import { objectStoreFor } from '../../../lib/object-store';
import {
  DOCUMENT_KINDS,
  DOCUMENT_TYPES,
  documentTooLarge,
  KYC_STATES,
  KYC_UPLOAD_PREFIX,
  VERIFICATION_LEVELS,
} from '../../../subgraphs/finance/compliance/vocabulary';
import type { Route, RouteInput } from '../../core/route';
import { route } from '../operation';
import type { KycDocumentFieldsFragment, KycVerificationFieldsFragment } from '../operations/types.generated';

/** Identity verification: the user's verifications, their documents, and the provider's signed webhook. */

const document = z.object({
  id: z.string().uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  content_type: z.string().describe('image/jpeg, image/png or application/pdf: from the bytes, not from the client'),
  size: z.number().int().describe('Bytes'),
  sha256: z.string().describe('Hex SHA-256 of the bytes'),
  created_at: z.string().describe('ISO 8601 UTC'),
});

const verification = z.object({
  id: z.string().uuid(),
  level: z.enum(VERIFICATION_LEVELS),
  state: z
    .enum(KYC_STATES)
    .describe(
      'unverified → (documents, submit) → pending → verified | rejected | resubmission_required, or in_review (a person decides); verified lapses to expired. Documents and submission are accepted in unverified, resubmission_required and expired.',
    ),
  provider: z.string().describe('sandbox or sumsub'),
  reason: z.string().describe("The reviewer's reason for a rejection or a resubmission; empty otherwise"),
  submitted_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  expires_at: z.string().nullable().describe('When a verified level lapses (basic: 730 days, enhanced: 365)'),
  created_at: z.string(),
  updated_at: z.string(),
  documents: z.array(document),
});

const status = z.object({
  level: z.enum(KYC_LEVELS).describe('The verified level money movement follows: enhanced needs basic and enhanced verified'),
  required_level: z.enum(KYC_LEVELS).describe('What this node requires before money moves ("KYC requirements", "Enforce enhanced KYC")'),
  verifications: z.array(verification),
});

const documentBody = (d: KycDocumentFieldsFragment) => ({
  id: d.id,
  kind: d.kind,
  content_type: d.contentType,
  size: d.size,
  sha256: d.sha256,
  created_at: d.createdAt,
});
const verificationBody = (v: KycVerificationFieldsFragment) => ({
  id: v.id,
  level: v.level,
  state: v.state,
  provider: v.provider,
  reason: v.reason,
  submitted_at: v.submittedAt,
  reviewed_at: v.reviewedAt,
  expires_at: v.expiresAt,
  created_at: v.createdAt,
  updated_at: v.updatedAt,
  documents: v.documents.map(documentBody),
});

const verificationParams = z.object({ id: z.string().uuid() });

/**
 * Streams a binary upload's body to the object store (kyc/uploads/<uuid>) without holding it in
 * memory, refusing more than KYC_DOCUMENT_MAX_BYTES (413, from Content-Length before a byte is read)
 * and a declared type other than JPEG, PNG or PDF (415); the compliance subgraph then checks the
 * stored bytes and takes the object.
 */
async function stageUpload(req: Request, config: Config): Promise<string> {
  const max = config.KYC_DOCUMENT_MAX_BYTES;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!(DOCUMENT_TYPES as readonly string[]).includes(type))
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 415, `The body is the file, sent as ${DOCUMENT_TYPES.join(', ')} (Content-Type).`);
  const length = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (length !== undefined && length > max) throw documentTooLarge(max);
  // counted while it streams, whatever Content-Length said (or if it said nothing: chunked)
  const limited = byteLimit(max, () => documentTooLarge(max));
  limited.once('error', () => {
    // the rest of an oversized body is read and dropped, so that the client gets its 413
    req.unpipe(limited);
    req.resume();
  });
  const key = `${KYC_UPLOAD_PREFIX}${randomUUID()}`;
  const objects = objectStoreFor(config);
  try {
    await objects.put(key, req.pipe(limited), { contentType: type, size: length });
  } catch (err) {
    await objects.delete(key).catch(() => undefined);
    throw err;
  }
  return key;
}
const header = (req: Request, name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);

export const kycRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/api/v1/kyc/',
    summary: "The caller's identity verification",
    description:
      "The caller's verified level (none, basic, enhanced), the level this node requires before money moves, and their verifications (one per level) with documents.",
    tags: ['KYC'],
    security: 'bearer',
    operation: 'KycStatus',
    response: { description: 'Verification status', schema: status },
    errors: [403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { level: data.kycStatus.level, required_level: data.kycStatus.requiredLevel, verifications: data.kycStatus.verifications.map(verificationBody) },
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/kyc/verifications/',
    summary: 'Start a verification',
    description:
      'JSON `{level, first_name, last_name}` → 201, state `unverified`. One verification per user and level: 409 `kyc_verification_exists` with its `state` and `id`. ' +
      'Enhanced requires a verified basic level: 409 `kyc_basic_required`. Sandbox provider: the last name decides at submission — `Reject` (rejected), `Resubmit` ' +
      '(resubmission_required), `Review` (in_review), `Pending` (stays pending), anything else verified.',
    tags: ['KYC'],
    security: 'bearer',
    operation: 'StartKycVerification',
    body: z.object({
      level: z.enum(VERIFICATION_LEVELS),
      first_name: z.string().describe('1 to 100 letters'),
      last_name: z.string().describe('1 to 100 letters'),
    }),
    variables: ({ body }: RouteInput<object, object, { level: string; first_name: string; last_name: string }>) => ({
      level: body.level,
      firstName: body.first_name,
      lastName: body.last_name,
    }),
    response: { status: 201, description: 'The verification', schema: verification },
    errors: [400, 403, 409],
    respond: (data) => ({ kind: 'json', status: 201, body: verificationBody(data.startKycVerification) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/kyc/verifications/:id/documents/',
    summary: 'Upload a document',
    description:
      'JSON `{kind, content_base64}`: the file as base64 (JPEG, PNG or PDF, recognised by its first bytes; at most KYC_DOCUMENT_MAX_BYTES and the request body limit, ' +
      'about 70 KiB of file: for larger files send the file itself to `POST …/documents/upload/?kind=`). ' +
      'Stored in the object store; a retry with the same `Idempotency-Key` answers the first outcome and stores nothing twice. Accepted while the verification is unverified, resubmission_required or expired; otherwise 409 `kyc_invalid_state` with the current `state`.',
    tags: ['KYC'],
    security: 'bearer',
    operation: 'UploadKycDocument',
    // a retried upload (Idempotency-Key) stores nothing twice
    idempotent: true,
    params: verificationParams,
    body: z.object({ kind: z.enum(DOCUMENT_KINDS), content_base64: z.string().min(1).describe('The file, base64') }),
    variables: ({ params, body }: RouteInput<{ id: string }, object, { kind: string; content_base64: string }>) => ({
      verificationId: params.id,
      kind: body.kind,
      contentBase64: body.content_base64,
    }),
    response: { status: 201, description: 'The stored document', schema: document },
    errors: [400, 403, 404, 409, 413],
    respond: (data) => ({ kind: 'json', status: 201, body: documentBody(data.uploadKycDocument) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/kyc/verifications/:id/documents/upload/',
    summary: 'Upload a document (the file as the body)',
    description:
      'For real ID photos and scans (up to KYC_DOCUMENT_MAX_BYTES, default 10 MiB): the body is the file itself, `Content-Type` image/jpeg, image/png or application/pdf ' +
      '(otherwise 415), `?kind=` the document kind. Streamed to the object store, never held in memory; the type is recognised by the first bytes (400 when they are ' +
      'not a JPEG, PNG or PDF), a larger file is refused with 413 before it is read. Answers like the JSON form `POST …/documents/` (which takes small files as base64 ' +
      'within the request body limit), idempotent the same way, in the same states.',
    tags: ['KYC'],
    security: 'bearer',
    operation: 'AttachKycDocument',
    consumes: 'binary',
    idempotent: true,
    params: verificationParams,
    query: z.object({ kind: z.enum(DOCUMENT_KINDS) }),
    variables: async ({ params, query, req, config }: RouteInput<{ id: string }, { kind: string }>) => ({
      verificationId: params.id,
      kind: query.kind,
      uploadKey: await stageUpload(req, config),
    }),
    response: { status: 201, description: 'The stored document', schema: document },
    errors: [400, 403, 404, 409, 413, 415],
    respond: (data) => ({ kind: 'json', status: 201, body: documentBody(data.attachKycDocument) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/kyc/verifications/:id/submit/',
    summary: 'Submit a verification for review',
    description:
      'Sends the documents uploaded since the last review to the provider: state `pending`, then its decision (the sandbox decides at once; a real provider by webhook). ' +
      'Without a document: 400. Not open (pending, in_review, verified, rejected): 409 `kyc_invalid_state` with the current `state`.',
    tags: ['KYC'],
    security: 'bearer',
    operation: 'SubmitKycVerification',
    params: verificationParams,
    variables: ({ params }: RouteInput<{ id: string }>) => ({ verificationId: params.id }),
    response: { description: 'The verification after submission', schema: verification },
    errors: [400, 403, 404, 409, 502],
    respond: (data) => ({ kind: 'json', body: verificationBody(data.submitKycVerification) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/webhooks/kyc/:provider/',
    summary: "A verification provider's webhook",
    description:
      "Sumsub's protocol: the raw JSON body signed with `X-Payload-Digest` (hex HMAC of the body with KYC_WEBHOOK_SECRET; `X-Payload-Digest-Alg` HMAC_SHA256_HEX or HMAC_SHA512_HEX). " +
      '`applicantReviewed` decides (GREEN verified; RED with FINAL rejected, with RETRY resubmission_required), `applicantOnHold` sends to manual review. ' +
      'A bad signature: 401 `webhook_signature_invalid`. The same delivery twice is applied once (`applied: false`).',
    tags: ['KYC'],
    // no credential: the signature over the raw body is the credential
    security: 'none',
    credentials: [],
    operation: 'ReceiveKycWebhook',
    params: z.object({ provider: z.string().regex(/^[a-z0-9_-]{1,64}$/) }),
    body: z.record(z.string(), z.unknown()).describe("The provider's event (JSON), verified over its raw bytes"),
    variables: ({ params, req }: RouteInput<{ provider: string }>) => ({
      provider: params.provider,
      payload: ((req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0)).toString('utf8'),
      digest: header(req, 'x-payload-digest'),
      digestAlgorithm: header(req, 'x-payload-digest-alg'),
    }),
    response: { description: 'Received', schema: z.object({ received: z.boolean(), applied: z.boolean() }) },
    errors: [400, 401, 404],
    respond: (data) => ({ kind: 'json', body: data.receiveKycWebhook }),
  }),
];

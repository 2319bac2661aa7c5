import { createHash } from 'node:crypto';
import { badInput, DomainError, notFound } from '../../../../lib/errors';
import type { IdempotentRequests } from '../../../../lib/idempotency';
import type { ObjectStore } from '../../../../lib/object-store';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import type { KycLevel } from '../../kernel/kyc';
import type { ComplianceStore, DocumentRow, VerificationRow } from '../store/compliance-store';
import { DECIDING_STATES, documentTooLarge, isKycUploadKey, VERIFICATION_LEVELS, type KycState, type VerificationLevel } from '../vocabulary';
import { checkDocument, checkKind, MAGIC_BYTES, recognise } from './documents';
import type { ReviewOutcome, VerificationProvider } from './provider';
import { effectiveLevel, invalidStateError, OPEN_STATES, VALIDITY_DAYS, type ReviewDecision } from './states';

/** Writes a user's effective level where every principal reads it (identity's setNodeUserKycLevel). */
export type KycLevelWriter = (userId: string, level: KycLevel) => Promise<void>;

export interface Verification extends VerificationRow {
  documents: DocumentRow[];
}

const NAME = /^[\p{L}][\p{L}\p{M} .'-]{0,99}$/u;
const DAY_MS = 86_400_000;

/**
 * Identity verification: one verification per user and level, its documents in the object store, a
 * provider's decision (at once from the sandbox, by signed webhook from a real one, or an
 * administrator's review), and expiry. After every change of a verified state the user's effective
 * level is written to identity, so that the node-user principal's `kycLevel` — what every money
 * module checks through requiredKycLevel — follows verification.
 */
export class KycService {
  constructor(
    private readonly store: ComplianceStore,
    private readonly provider: VerificationProvider,
    private readonly objects: ObjectStore,
    private readonly writeLevel: KycLevelWriter,
    private readonly maxDocumentBytes: number,
    private readonly idempotent: IdempotentRequests,
    private readonly audit: AuditOutbox,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  /** The user's verifications, with their documents. (Their level is identity's: `syncLevel` writes it there.) */
  async verifications(userId: string): Promise<Verification[]> {
    return this.withDocuments(await this.store.byUser(userId));
  }

  /** Starts the user's verification at a level; enhanced requires a verified basic level. 409 when one exists. */
  async start(userId: string, level: string, firstName: string, lastName: string): Promise<Verification> {
    if (!(VERIFICATION_LEVELS as readonly string[]).includes(level))
      throw badInput(`level is one of ${VERIFICATION_LEVELS.join(', ')}.`, { level: ['Unknown level.'] });
    const names = { firstName: firstName.trim(), lastName: lastName.trim() };
    for (const [field, value] of [
      ['first_name', names.firstName],
      ['last_name', names.lastName],
    ] as const) {
      if (!NAME.test(value)) throw badInput(`${field} must be 1 to 100 letters.`, { [field]: ['1 to 100 letters, spaces, apostrophes or hyphens.'] });
    }
    if (level === 'enhanced') {
      const basic = await this.store.byUserAndLevel(userId, 'basic');
      if (basic?.state !== 'verified')
        throw new DomainError('KYC_BASIC_REQUIRED', 409, 'Enhanced verification requires a verified basic level first.', {
          state: basic?.state ?? 'unverified',
        });
    }
    const row = await this.store.create({ userId, level: level as VerificationLevel, provider: this.provider.name, ...names });
    if (!row) {
      const existing = (await this.store.byUserAndLevel(userId, level as VerificationLevel))!;
      throw new DomainError('KYC_VERIFICATION_EXISTS', 409, `A ${level} verification exists already (${existing.state.replace(/_/g, ' ')}).`, {
        state: existing.state,
        id: existing.id,
      });
    }
    return { ...row, documents: [] };
  }

  /**
   * Adds a document (checked: type by magic bytes, size) while the verification is open. With an
   * Idempotency-Key a retried upload answers the first outcome and stores nothing twice.
   */
  async upload(userId: string, verificationId: string, kind: string, contentBase64: string, idempotencyKey?: string | null): Promise<DocumentRow> {
    const verification = await this.own(userId, verificationId);
    const document = checkDocument(kind, contentBase64, this.maxDocumentBytes);
    const sha256 = createHash('sha256').update(document.bytes).digest('hex');
    return this.idempotent.run(
      { owner: `user:${userId}`, key: idempotencyKey, operation: 'uploadKycDocument', input: { verificationId, kind, sha256 } },
      async (ids) => {
        if (!OPEN_STATES.includes(verification.state)) throw invalidStateError(verification.state, 'given documents');
        const id = ids('document');
        const objectKey = `kyc/${userId}/${verificationId}/${id}.${document.extension}`;
        const stored = await this.store.addDocument(
          { id, verificationId, kind: document.kind, contentType: document.contentType, size: document.bytes.length, sha256, objectKey },
          OPEN_STATES,
          async () => {
            await this.objects.put(objectKey, document.bytes, { contentType: document.contentType, size: document.bytes.length });
          },
        );
        if (!stored) throw invalidStateError((await this.store.byId(verificationId))!.state, 'given documents');
        return stored;
      },
    );
  }

  /**
   * Adds a document the REST surface streamed to the object store (`uploadKey`, see KYC_UPLOAD_PREFIX),
   * checked here from the stored bytes — type by its first bytes, size, SHA-256 — and copied to the
   * verification's own key; the upload is removed either way. Idempotent like `upload` (one
   * Idempotency-Key answers the first outcome, whichever form carried the bytes).
   */
  async attach(userId: string, verificationId: string, kind: string, uploadKey: string, idempotencyKey?: string | null): Promise<DocumentRow> {
    try {
      const verification = await this.own(userId, verificationId);
      const documentKind = checkKind(kind);
      if (!isKycUploadKey(uploadKey)) throw badInput('Not an upload of this node.', { upload: ['Unknown upload.'] });
      const staged = await this.objects.head(uploadKey);
      if (!staged) throw badInput('The upload is gone; send the file again.', { upload: ['Unknown upload.'] });
      if (staged.size === 0) throw badInput('The document is empty.', { file: ['Empty file.'] });
      if (staged.size > this.maxDocumentBytes) throw documentTooLarge(this.maxDocumentBytes);
      const { contentType, extension } = recognise(
        await readAll(await this.objects.get(uploadKey, { start: 0, end: Math.min(MAGIC_BYTES, staged.size) - 1 })),
        'file',
      );
      const hash = createHash('sha256');
      for await (const chunk of await this.objects.get(uploadKey)) hash.update(chunk as Buffer);
      const sha256 = hash.digest('hex');
      return await this.idempotent.run(
        { owner: `user:${userId}`, key: idempotencyKey, operation: 'uploadKycDocument', input: { verificationId, kind, sha256 } },
        async (ids) => {
          if (!OPEN_STATES.includes(verification.state)) throw invalidStateError(verification.state, 'given documents');
          const id = ids('document');
          const objectKey = `kyc/${userId}/${verificationId}/${id}.${extension}`;
          const stored = await this.store.addDocument(
            { id, verificationId, kind: documentKind, contentType, size: staged.size, sha256, objectKey },
            OPEN_STATES,
            async () => {
              await this.objects.put(objectKey, await this.objects.get(uploadKey), { contentType, size: staged.size });
            },
          );
          if (!stored) throw invalidStateError((await this.store.byId(verificationId))!.state, 'given documents');
          return stored;
        },
      );
    } finally {
      if (isKycUploadKey(uploadKey)) await this.objects.delete(uploadKey).catch(() => undefined);
    }
  }

  /** Submits an open verification with at least one document: the provider's applicant gets them; the sandbox decides at once. */
  async submit(userId: string, verificationId: string): Promise<Verification> {
    const verification = await this.own(userId, verificationId);
    if (!OPEN_STATES.includes(verification.state)) throw invalidStateError(verification.state, 'submitted');
    const documents = (await this.store.documents([verificationId])).filter((d) => d.createdAt >= (verification.reviewedAt ?? new Date(0)));
    if (!documents.length) throw badInput('Upload at least one document before submitting.', { documents: ['At least one document since the last review.'] });
    const { applicantId } = await this.provider.createApplicant({
      externalUserId: verification.id,
      level: verification.level,
      firstName: verification.firstName,
      lastName: verification.lastName,
    });
    for (const d of documents) {
      const bytes = await readAll(await this.objects.get(d.objectKey));
      await this.provider.addDocument(applicantId, { kind: d.kind, contentType: d.contentType, fileName: d.objectKey.split('/').pop()!, bytes });
    }
    const pending = await this.store.transition(verificationId, OPEN_STATES, 'pending', { applicantId, submittedAt: this.clock(), reason: '' });
    if (!pending) throw invalidStateError((await this.store.byId(verificationId))!.state, 'submitted');
    const outcome = await this.provider.submit({ applicantId, firstName: verification.firstName, lastName: verification.lastName });
    const decided = outcome ? await this.decide(pending, ['pending'], outcome) : pending;
    return (await this.withDocuments([decided]))[0];
  }

  /** An administrator's review of a verification awaiting a decision (pending or in review). */
  /** An administrator (`by`: their user name) decides a verification; the decision and its audit entry commit together. */
  async review(verificationId: string, decision: string, reason: string, by: string): Promise<Verification> {
    const allowed: ReviewDecision[] = ['verified', 'rejected', 'resubmission_required'];
    if (!(allowed as string[]).includes(decision)) throw badInput(`decision is one of ${allowed.join(', ')}.`, { decision: ['Unknown decision.'] });
    if (decision !== 'verified' && !reason.trim()) throw badInput('Give the user a reason.', { reason: ['Required unless approving.'] });
    const verification = await this.store.byId(verificationId);
    if (!verification) throw notFound('No such verification.');
    const outcome = { decision: decision as ReviewDecision, reason: reason.trim() };
    const decided = await this.store.transaction(async (db) => {
      const row = await this.store.transition(verification.id, DECIDING_STATES, outcome.decision, this.patchFor(verification, outcome), db);
      if (!row) throw invalidStateError((await this.store.byId(verification.id, db))!.state, 'decided');
      await this.audit.record(db, adminActor(by), 'kyc.reviewed', {
        verification: row.id,
        user: row.userId,
        level: row.level,
        from: verification.state,
        to: row.state,
        reason: outcome.reason,
      });
      return row;
    });
    await this.syncLevel(decided.userId);
    return (await this.withDocuments([decided]))[0];
  }

  /**
   * An administrator (`by`) opens a document to review it: where its bytes are, and an audit entry
   * (`kyc.document_viewed`) committed before they are told — no view goes unrecorded.
   */
  async viewDocument(documentId: string, by: string): Promise<DocumentRow> {
    const document = /^[0-9a-f-]{36}$/i.test(documentId) ? await this.store.document(documentId) : undefined;
    if (!document) throw notFound('No such document.');
    const verification = (await this.store.byId(document.verificationId))!;
    await this.store.transaction((db) =>
      this.audit.record(db, adminActor(by), 'kyc.document_viewed', {
        document: document.id,
        verification: verification.id,
        user: verification.userId,
        kind: document.kind,
      }),
    );
    return document;
  }

  /** A provider's signed webhook: verified, applied once per delivery. */
  async receiveWebhook(provider: string, rawBody: string, headers: Record<string, string | undefined>): Promise<{ applied: boolean }> {
    if (provider !== this.provider.name || !this.provider.readWebhook) throw notFound('No such verification provider.');
    const event = await this.provider.readWebhook(rawBody, headers);
    const { fresh, result } = await this.store.onceDelivery(provider, event.deliveryId, async (db) => {
      const verification = await this.store.byApplicant(provider, event.applicantId, db);
      // an event deciding nothing, or on a verification decided already, is acknowledged and ignored
      if (!verification || !event.outcome || !DECIDING_STATES.includes(verification.state)) return undefined;
      if (event.outcome.decision === verification.state) return undefined;
      const row = await this.store.transition(verification.id, DECIDING_STATES, event.outcome.decision, this.patchFor(verification, event.outcome), db);
      return row;
    });
    if (fresh && result) await this.syncLevel(result.userId);
    return { applied: Boolean(fresh && result) };
  }

  /** Verified levels past their expiry lapse (the sweep); answers how many. */
  async expireDue(): Promise<number> {
    const expired = await this.store.expireDue(this.clock());
    for (const userId of new Set(expired.map((v) => v.userId))) await this.syncLevel(userId);
    return expired.length;
  }

  /** Verifications for the admin console. */
  async list(first: number, state?: KycState): Promise<Verification[]> {
    return this.withDocuments(await this.store.list(first, state));
  }

  private async decide(verification: VerificationRow, from: readonly KycState[], outcome: ReviewOutcome): Promise<VerificationRow> {
    const row = await this.store.transition(verification.id, from, outcome.decision, this.patchFor(verification, outcome));
    if (!row) throw invalidStateError((await this.store.byId(verification.id))!.state, 'decided');
    await this.syncLevel(row.userId);
    return row;
  }

  private patchFor(verification: VerificationRow, outcome: ReviewOutcome) {
    const now = this.clock();
    return {
      reason: outcome.reason,
      reviewedAt: outcome.decision === 'in_review' ? undefined : now,
      expiresAt: outcome.decision === 'verified' ? new Date(now.getTime() + VALIDITY_DAYS[verification.level] * DAY_MS) : null,
    };
  }

  /** Writes the user's effective level to identity (idempotent: recomputed from every verification, one writer per user at a time). */
  private async syncLevel(userId: string): Promise<void> {
    await this.store.underUserLock(userId, (verifications) => this.writeLevel(userId, effectiveLevel(verifications)));
  }

  private async own(userId: string, verificationId: string): Promise<VerificationRow> {
    const row = /^[0-9a-f-]{36}$/i.test(verificationId) ? await this.store.byId(verificationId) : undefined;
    // another user's verification is as unknown as a missing one
    if (!row || row.userId !== userId) throw notFound('No such verification.');
    return row;
  }

  private async withDocuments(rows: VerificationRow[]): Promise<Verification[]> {
    const documents = rows.length ? await this.store.documents(rows.map((r) => r.id)) : [];
    return rows.map((r) => ({ ...r, documents: documents.filter((d) => d.verificationId === r.id) }));
  }
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../../lib/errors';
import { requireSecret, webhookSignatureInvalid, type SecretSource } from '../../kernel/provider-http';
import type { ReviewOutcome, VerificationProvider, WebhookEvent } from './provider';
import type { VerificationLevel } from '../vocabulary';
import { readText } from '../../../../lib/bounded-body';

/** The three secrets are read at each use (the environment, else the admin console's `kyc` records). */
export interface SumsubSettings {
  baseUrl: string;
  appToken: SecretSource;
  secretKey: SecretSource;
  webhookSecret: SecretSource;
  /** The provider's level names for ours. */
  levelNames?: Record<VerificationLevel, string>;
  timeoutMs?: number;
}

const DEFAULT_LEVEL_NAMES: Record<VerificationLevel, string> = { basic: 'basic-kyc-level', enhanced: 'enhanced-kyc-level' };

/** Sumsub's webhook digest algorithms (header X-Payload-Digest-Alg) and Node's names for them. */
const DIGEST_ALGORITHMS: Record<string, string> = { HMAC_SHA256_HEX: 'sha256', HMAC_SHA512_HEX: 'sha512' };

const providerError = (message: string) => new DomainError('KYC_PROVIDER_UNAVAILABLE', 502, message);

interface ReviewedPayload {
  type?: string;
  applicantId?: string;
  reviewResult?: { reviewAnswer?: string; reviewRejectType?: string; moderationComment?: string; rejectLabels?: string[] };
}

/**
 * Sumsub's protocol: requests signed with X-App-Token / X-App-Access-Ts / X-App-Access-Sig (hex
 * HMAC-SHA256 of ts + METHOD + path + body with the secret key); decisions arrive as webhooks signed
 * with X-Payload-Digest (hex HMAC of the raw body with the webhook secret), `applicantReviewed` with
 * reviewAnswer GREEN, or RED with reviewRejectType FINAL (rejected) or RETRY (resubmission);
 * `applicantOnHold` sends it to manual review.
 */
export class SumsubVerificationProvider implements VerificationProvider {
  readonly name = 'sumsub';

  constructor(private readonly settings: SumsubSettings) {}

  async createApplicant(input: { externalUserId: string; level: VerificationLevel; firstName: string; lastName: string }): Promise<{ applicantId: string }> {
    const levelName = (this.settings.levelNames ?? DEFAULT_LEVEL_NAMES)[input.level];
    const body = Buffer.from(JSON.stringify({ externalUserId: input.externalUserId, info: { firstName: input.firstName, lastName: input.lastName } }));
    const res = await this.call('POST', `/resources/applicants?levelName=${encodeURIComponent(levelName)}`, body, 'application/json');
    const id = (res as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) throw providerError('The verification provider answered no applicant id.');
    return { applicantId: id };
  }

  async addDocument(applicantId: string, document: { kind: string; contentType: string; fileName: string; bytes: Buffer }): Promise<void> {
    // multipart built by hand: the signature covers the exact bytes sent
    const boundary = `----kyc${randomBytes(12).toString('hex')}`;
    const metadata = JSON.stringify({ idDocType: document.kind.toUpperCase(), country: 'XXX' });
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n${metadata}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${document.fileName}"\r\nContent-Type: ${document.contentType}\r\n\r\n`,
      ),
      document.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    await this.call('POST', `/resources/applicants/${encodeURIComponent(applicantId)}/info/idDoc`, body, `multipart/form-data; boundary=${boundary}`);
  }

  async submit({ applicantId }: { applicantId: string }): Promise<ReviewOutcome | undefined> {
    await this.call('POST', `/resources/applicants/${encodeURIComponent(applicantId)}/status/pending`, Buffer.alloc(0));
    return undefined;
  }

  async readWebhook(rawBody: string, headers: Record<string, string | undefined>): Promise<WebhookEvent> {
    // an empty secret would make every forged decision verify
    const webhookSecret = await requireSecret(this.settings.webhookSecret, "The identity provider's webhook secret");
    const algorithm = DIGEST_ALGORITHMS[headers['x-payload-digest-alg'] ?? 'HMAC_SHA256_HEX'];
    const digest = headers['x-payload-digest'] ?? '';
    if (!algorithm || !/^[0-9a-f]+$/i.test(digest)) throw webhookSignatureInvalid();
    const expected = createHmac(algorithm, webhookSecret).update(rawBody, 'utf8').digest();
    const given = Buffer.from(digest, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw webhookSignatureInvalid();
    let payload: ReviewedPayload;
    try {
      payload = JSON.parse(rawBody) as ReviewedPayload;
    } catch {
      throw new DomainError('BAD_USER_INPUT', 400, 'The webhook body is not JSON.');
    }
    if (typeof payload.applicantId !== 'string') throw new DomainError('BAD_USER_INPUT', 400, 'The webhook names no applicantId.');
    // the signed bytes identify the delivery: a retry or a replay of it is the same bytes
    const deliveryId = createHash('sha256').update(rawBody, 'utf8').digest('hex');
    return { deliveryId, applicantId: payload.applicantId, outcome: outcomeOf(payload) };
  }

  private async call(method: string, path: string, body: Buffer, contentType?: string): Promise<unknown> {
    const [appToken, secretKey] = await Promise.all([
      requireSecret(this.settings.appToken, "The identity provider's app token"),
      requireSecret(this.settings.secretKey, "The identity provider's secret key"),
    ]);
    const ts = Math.floor(Date.now() / 1000).toString();
    const signature = createHmac('sha256', secretKey)
      .update(ts + method + path)
      .update(body)
      .digest('hex');
    let res: Response;
    try {
      res = await fetch(new URL(path, this.settings.baseUrl), {
        method,
        headers: {
          accept: 'application/json',
          'x-app-token': appToken,
          'x-app-access-ts': ts,
          'x-app-access-sig': signature,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        body: body.length ? body : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 10_000),
      });
    } catch {
      throw providerError('The verification provider could not be reached; please retry.');
    }
    const text = await readText(res).catch(() => {
      throw providerError('The verification provider answered more than can be read; please retry.');
    });
    if (!res.ok) throw providerError(`The verification provider refused the request (HTTP ${res.status}).`);
    try {
      return text ? (JSON.parse(text) as unknown) : {};
    } catch {
      throw providerError('The verification provider answered something other than JSON.');
    }
  }
}

function outcomeOf(payload: ReviewedPayload): ReviewOutcome | undefined {
  if (payload.type === 'applicantOnHold') return { decision: 'in_review', reason: 'Held for manual review by the provider.' };
  if (payload.type !== 'applicantReviewed') return undefined;
  const result = payload.reviewResult ?? {};
  const reason = [result.moderationComment, ...(result.rejectLabels ?? [])].filter(Boolean).join('; ');
  if (result.reviewAnswer === 'GREEN') return { decision: 'verified', reason: '' };
  if (result.reviewAnswer === 'RED') return { decision: result.reviewRejectType === 'RETRY' ? 'resubmission_required' : 'rejected', reason };
  return undefined;
}

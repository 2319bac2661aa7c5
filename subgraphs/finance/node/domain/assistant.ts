import type { Config } from '../../../../lib/config';
import { DomainError, badInput } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/logger';
import type { ProviderSecrets } from '../../kernel/provider-secrets';
import { providerCredential } from '../../kernel/provider-credentials';
import { readJson } from '../../../../lib/bounded-body';

/** What the assistant says when it cannot answer (no provider key, provider down): the contract's generic failure. */
export const ASSISTANT_FAILURE_MESSAGE = 'Sorry, the assistant is unavailable right now. Please try again later.';

export const assistantUnavailable = () => new DomainError('ASSISTANT_UNAVAILABLE', 503, ASSISTANT_FAILURE_MESSAGE, { retryAfterSeconds: 30 });

/** No provider key at all: not a passing failure but a feature this node does not offer (501, no Retry-After: asking again changes nothing). */
export const ASSISTANT_NOT_CONFIGURED_MESSAGE =
  'The assistant is not configured on this node: an administrator gives it a provider key (ASSISTANT_API_KEY, or the credential assistant/api_key in the admin console).';
export const assistantNotConfigured = () => new DomainError('ASSISTANT_NOT_CONFIGURED', 501, ASSISTANT_NOT_CONFIGURED_MESSAGE);

const TIMEOUT_MS = 30_000;

/**
 * The in-app assistant: a user's question to an OpenAI-compatible chat-completions provider
 * (ASSISTANT_BASE_URL, ASSISTANT_MODEL; the key from ASSISTANT_API_KEY, else the provider credential
 * `assistant`/`api_key` of the admin console, read at each question). Without a key: 501 (not configured);
 * any failure of the provider is the generic message (503 with Retry-After).
 */
export class AssistantService {
  constructor(
    private readonly config: Config,
    private readonly secrets: ProviderSecrets,
    private readonly logger: Logger,
  ) {}

  /** Whether a provider key is there (ASSISTANT_API_KEY, or the admin console's credential): read now, as each question does. */
  async configured(): Promise<boolean> {
    return !!(await this.secrets.get(providerCredential('assistant', 'api_key')).catch(() => undefined));
  }

  async ask(question: string, username: string): Promise<{ answer: string; model: string }> {
    question = question?.trim() ?? '';
    if (!question || question.length > 4000) throw badInput('question must be 1 to 4,000 characters.', { question: ['1 to 4,000 characters.'] });
    const key = await this.secrets.get(providerCredential('assistant', 'api_key')).catch(() => undefined);
    if (!key) throw assistantNotConfigured();
    const base = this.config.ASSISTANT_BASE_URL.replace(/\/+$/, '');
    try {
      const res = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model: this.config.ASSISTANT_MODEL,
          messages: [
            {
              role: 'system',
              content: `You are the in-app assistant of ${this.config.APP_NAME}, a wallet, banking and investing service. Answer briefly. Never ask for passwords or one-time codes.`,
            },
            { role: 'user', content: question },
          ],
          user: username,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`provider answered ${res.status}`);
      const body = (await readJson(res)) as { model?: string; choices?: { message?: { content?: string } }[] };
      const answer = body.choices?.[0]?.message?.content?.trim();
      if (!answer) throw new Error('provider answered without a message');
      return { answer, model: body.model ?? this.config.ASSISTANT_MODEL };
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'assistant provider failed');
      throw assistantUnavailable();
    }
  }
}

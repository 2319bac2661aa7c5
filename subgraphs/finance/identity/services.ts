import type { Store } from '../../../lib/database';
import { allowPasswordHashesAtOnce } from '../../../lib/passwords';
import { createMailer, readOutbox } from '../../../lib/mailer';
import { KeyedLimiter } from '../../../lib/rate-limits';
import { AttemptThrottle, CODE_ATTEMPTS, PHONE_CODE_ATTEMPTS, SIGN_IN_ATTEMPTS, TOKEN_ATTEMPTS } from '../../../lib/attempts';
import { purposeBox } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { nodeSecrets, usableSecret } from '../kernel/secrets';
import { IdentityService, improperlyConfigured } from './domain/identity-service';
import { OnboardingService, type OnboardingLimits } from './domain/onboarding';
import { OperatorService } from './domain/operators';
import { RecoveryCodes } from './domain/recovery-codes';
import { SessionService } from './domain/sessions';
import { TokenService } from './domain/tokens';
import { PhoneVerificationService } from './domain/phone-verification';
import { SandboxSms, TwilioSms, type SmsProvider } from './domain/sms';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { isDevelopment, type Config } from '../../../lib/config';
import type { Logger } from '../../../lib/logger';
import type { SupergraphClient } from '../../../lib/supergraph-client';
import { Messenger } from './domain/messages';
import { DevOutbox } from './domain/dev-outbox';
import { IdentityStore } from './store/identity-store';
import { OnboardingStore } from './store/onboarding-store';
import { OperatorStore } from './store/operator-store';
import { PhoneStore } from './store/phone-store';

export interface IdentityServices {
  identity: IdentityService;
  onboarding: OnboardingService;
  /** The console's authority over accounts: no operator acts on their own or another operator's; operator changes take two people. */
  operators: OperatorService;
  phones: PhoneVerificationService;
  /** Development only: the mails and text messages the node "sent" (404 in production). */
  devOutbox: DevOutbox;
  sessions: SessionService;
  /** Operator decisions audited in their transaction; relayed to the node's audit log (index.ts). */
  audit: AuditOutbox;
  gate: NodeGate;
  store: Store;
}

function onboardingLimits(store: Store, perHour: number): OnboardingLimits {
  const hour = (name: string, points: number) => new KeyedLimiter(store, name, { points, durationSeconds: 3600 });
  return {
    signup: hour('signup', perHour),
    verify: hour('verify', perHour),
    reset: hour('reset', perHour),
    resetMail: hour('reset-mail', 3),
    resend: hour('resend', 5),
  };
}

/** Twilio's Messages API when SMS_PROVIDER_URL is set (with the account, token and sender), else the offline sandbox (ALLOW_SANDBOX_PROVIDERS=sms in production). */
function smsProvider(config: Config, phones: PhoneStore): SmsProvider {
  if (!config.SMS_PROVIDER_URL) return sandboxOrDisabled(config, 'sms', () => new SandboxSms(phones));
  const { SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken, SMS_FROM: from } = config;
  if (!accountSid || !authToken || !from) {
    const missing = () => {
      throw improperlyConfigured('SMS_PROVIDER_URL is set without SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM: no text message can be sent.');
    };
    return { name: 'twilio', send: missing };
  }
  return new TwilioSms({ baseUrl: config.SMS_PROVIDER_URL, accountSid, authToken, from, timeoutMs: config.SMS_PROVIDER_TIMEOUT_MS });
}

const BRAND_NAME_QUERY = 'query IdentityBrandName { nodeBranding { organisationName } }';

/** The node's name for its mails and text messages: the branding's organisation name (admin console), read through the supergraph; APP_NAME when it cannot be read. */
function brandNameFromSupergraph(supergraph: SupergraphClient, fallback: string, logger: Logger): () => Promise<string> {
  return async () => {
    try {
      const { nodeBranding } = await supergraph.request<{ nodeBranding: { organisationName: string } }>(BRAND_NAME_QUERY);
      return nodeBranding.organisationName.trim() || fallback;
    } catch (err) {
      logger.warn({ err: { message: (err as Error).message } }, 'the branding could not be read: messages carry APP_NAME');
      return fallback;
    }
  };
}

export function createIdentityServices({ store, config, supergraph, logger }: SubgraphDeps): IdentityServices {
  // the workspace's and the identity's passwords share one bound per process (lib/passwords.ts)
  allowPasswordHashesAtOnce(config.PASSWORD_HASHES_AT_ONCE);
  const secrets = nodeSecrets(config);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const tokens = secrets.serverJwtKey ? new TokenService(secrets.serverJwtKey, config.APP_NAME) : undefined;
  const totpBox = usableSecret(secrets.frameworkSecretKey) ? purposeBox(secrets.frameworkSecretKey!, 'identity.totp') : undefined;
  const attempts = {
    signIn: new AttemptThrottle(
      store,
      'sign-in',
      SIGN_IN_ATTEMPTS,
      (s) => `Too many failed sign-ins. Request was throttled. Expected available in ${s} seconds.`,
    ),
    codes: new AttemptThrottle(
      store,
      'otp',
      CODE_ATTEMPTS,
      (s) => `Too many one-time code attempts. Request was throttled. Expected available in ${s} seconds.`,
    ),
  };
  const users = new IdentityStore(store);
  const accountStore = new OnboardingStore(store);
  const sessions = new SessionService(accountStore, () => {
    if (!tokens) throw improperlyConfigured('SERVER_JWT_KEY is not set: this node cannot issue or verify access tokens.');
    return tokens;
  });
  const recoveryCodes = new RecoveryCodes(accountStore);
  const identity = new IdentityService(users, gate, tokens, totpBox, config.APP_NAME, { sessions, recoveryCodes }, attempts);
  const audit = new AuditOutbox('identity', store.pool, deliverThroughSupergraph(supergraph));
  const phoneStore = new PhoneStore(store);
  const messages = new Messenger({
    mailer: createMailer(config, logger),
    sms: smsProvider(config, phoneStore),
    links: { frontendUrl: config.FRONTEND_URL, development: isDevelopment(config), fallback: `http://localhost:${config.PORT}/app/` },
    brandName: brandNameFromSupergraph(supergraph, config.APP_NAME, logger),
    logger,
  });
  const onboarding = new OnboardingService({
    store: accountStore,
    users,
    identity,
    sessions,
    recoveryCodes,
    gate,
    messages,
    limits: onboardingLimits(store, config.AUTH_ATTEMPTS_PER_HOUR),
    tokens: new AttemptThrottle(
      store,
      'mail-token',
      TOKEN_ATTEMPTS,
      (s) => `Too many wrong links or codes from this address. Request was throttled. Expected available in ${s} seconds.`,
    ),
    logger,
    defaultSignupMode: config.NODE_ENV === 'production' ? 'invite_only' : 'open',
    audit,
  });
  const phones = new PhoneVerificationService({
    users,
    phones: phoneStore,
    messages,
    attempts: new AttemptThrottle(
      store,
      'phone-code',
      PHONE_CODE_ATTEMPTS,
      (s) => `Too many wrong codes: ask for a new code. Request was throttled. Expected available in ${s} seconds.`,
    ),
    sends: [
      new KeyedLimiter(store, 'phone-send-min', { points: 1, durationSeconds: 60 }),
      new KeyedLimiter(store, 'phone-send-day', { points: 5, durationSeconds: 24 * 3600 }),
    ],
    codeKey: usableSecret(secrets.frameworkSecretKey) ? secrets.frameworkSecretKey : undefined,
  });
  const operators = new OperatorService({ users, accounts: accountStore, store: new OperatorStore(store), identity, onboarding, phones, audit });
  const devOutbox = new DevOutbox({
    development: isDevelopment(config),
    mails: (first, accept) => readOutbox(config, first, accept),
    sms: (first) => phoneStore.outbox(null, first),
  });
  return { identity, onboarding, operators, phones, devOutbox, sessions, audit, gate, store };
}

import type { Store } from '../../../lib/database';
import { createMailer } from '../../../lib/mailer';
import { KeyedLimiter } from '../../../lib/rate-limits';
import { AttemptThrottle, CODE_ATTEMPTS, SIGN_IN_ATTEMPTS } from '../../../lib/attempts';
import { purposeBox } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { auditTrailFromSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { nodeSecrets, usableSecret } from '../kernel/secrets';
import { IdentityService, improperlyConfigured } from './domain/identity-service';
import { OnboardingService, type OnboardingLimits } from './domain/onboarding';
import { RecoveryCodes } from './domain/recovery-codes';
import { SessionService } from './domain/sessions';
import { TokenService } from './domain/tokens';
import { IdentityStore } from './store/identity-store';
import { OnboardingStore } from './store/onboarding-store';

export interface IdentityServices {
  identity: IdentityService;
  onboarding: OnboardingService;
  sessions: SessionService;
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
    secondChecks: new KeyedLimiter(store, 'second-check', { points: 5, durationSeconds: 15 * 60 }),
  };
}

export function createIdentityServices({ store, config, supergraph, logger }: SubgraphDeps): IdentityServices {
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
  const onboarding = new OnboardingService({
    store: accountStore,
    users,
    identity,
    sessions,
    recoveryCodes,
    gate,
    mailer: createMailer(config, logger),
    limits: onboardingLimits(store, config.AUTH_ATTEMPTS_PER_HOUR),
    logger,
    appName: config.APP_NAME,
    frontendUrl: config.FRONTEND_URL,
    audit: auditTrailFromSupergraph(supergraph),
  });
  return { identity, onboarding, sessions, gate, store };
}

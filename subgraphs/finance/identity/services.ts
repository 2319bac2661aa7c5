import type { Store } from '../../../lib/database';
import { AttemptThrottle, CODE_ATTEMPTS, SIGN_IN_ATTEMPTS } from '../../../lib/attempts';
import { purposeBox } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { nodeSecrets, usableSecret } from '../kernel/secrets';
import { IdentityService } from './domain/identity-service';
import { TokenService } from './domain/tokens';
import { IdentityStore } from './store/identity-store';

export interface IdentityServices {
  identity: IdentityService;
  gate: NodeGate;
  store: Store;
}

export function createIdentityServices({ store, config, supergraph }: SubgraphDeps): IdentityServices {
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
  return { identity: new IdentityService(new IdentityStore(store), gate, tokens, totpBox, config.APP_NAME, attempts), gate, store };
}

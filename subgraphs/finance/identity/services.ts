import type { Store } from '../../../lib/database';
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
  return { identity: new IdentityService(new IdentityStore(store), gate, tokens, totpBox, config.APP_NAME), gate, store };
}

import type { Store } from '../../../lib/database';
import { ProviderSecrets } from '../kernel/provider-secrets';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { AssistantService } from './domain/assistant';
import { NodeService } from './domain/node-service';
import { RegistryClient } from './domain/registry';
import { NodeGate } from '../kernel/gate';
import { nodeSecrets } from '../kernel/secrets';
import { NodeStore } from './store/node-store';

export interface NodeServices {
  node: NodeService;
  gate: NodeGate;
  registry: RegistryClient;
  assistant: AssistantService;
  /** The node's own provider credentials (the assistant's key): read in-process, evicted by NOTIFY. */
  providerSecrets: ProviderSecrets;
  store: Store;
  /** installLicence(token, publicKey): the in-process entry (bin/start.ts's demo licence), as the admin console's. */
  installLicence(token: string, publicKey: string): ReturnType<NodeService['installLicence']>;
}

export function createNodeServices({ store, config, logger }: SubgraphDeps): NodeServices {
  const nodeStore = new NodeStore(store);
  let gate: NodeGate | undefined = undefined;
  const node = new NodeService(nodeStore, config, nodeSecrets(config), logger, () => gate?.evict());
  gate = new NodeGate(() => node.nodeState());
  const registry = new RegistryClient(nodeStore, node, config, logger);
  const providerSecrets = new ProviderSecrets(config, (provider, name) => node.providerSecret(provider, name));
  return {
    node,
    gate,
    registry,
    assistant: new AssistantService(config, providerSecrets, logger),
    providerSecrets,
    store,
    installLicence: (token, publicKey) => node.installLicence(token, publicKey, 'api', 'api'),
  };
}

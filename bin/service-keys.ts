import { serviceKeyEnv } from '../lib/service-keys';
import { PRODUCT_NAMES, subgraphNamesOf } from '../subgraphs/products';

/**
 * `npm run --silent service-keys > .env`: a fresh Ed25519 key pair for the gateway and for each
 * subgraph, as the environment lines docker-compose.yml reads (GATEWAY_PRIVATE_KEY,
 * GATEWAY_PUBLIC_KEY, <SUBGRAPH>_PRIVATE_KEY, <SUBGRAPH>_PUBLIC_KEY). docker compose hands each
 * container its own private key and the public keys it checks; keep the file private (mode 600).
 */
const env = serviceKeyEnv(subgraphNamesOf(PRODUCT_NAMES));
process.stdout.write(
  [
    `# Per-service keys for docker compose (${new Date().toISOString().slice(0, 10)}): each private key goes to its own container only.`,
    ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
    '',
  ].join('\n'),
);

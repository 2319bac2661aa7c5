import { randomBytes } from 'node:crypto';
import type { Config } from '../../lib/config';
import { readDemoFile, writeDemoFile } from '../../lib/demo-file';
import type { IdentityServices } from './identity/services';
import type { LedgerServices } from './ledger/services';
import type { NodeServices } from './node/services';

export interface FinanceDemo {
  /** The admin console's superuser (absent when SUPERUSER_USERNAME is configured: that one is the operator's). */
  admin?: { username: string; password: string };
  user: { username: string; password: string };
}

/** Demo balances of the demo user (minor units), each funded once by a fixed transfer id (idempotent). */
const DEMO_FUNDING: { currency: string; amount: bigint; transferId: string }[] = [
  { currency: 'EUR', amount: 125_000n, transferId: 'd0e0f0a0-0000-4000-8000-00000000e001' },
  { currency: 'GBP', amount: 80_000n, transferId: 'd0e0f0a0-0000-4000-8000-00000000e002' },
];

/** The finance node's superuser and a demo user with funded EUR and GBP balances (the database holds argon2 hashes). */
export async function financeDemo(config: Config, identity: IdentityServices, ledger: LedgerServices): Promise<FinanceDemo> {
  const saved = readDemoFile(config) as { finance?: FinanceDemo };
  const ensure = async (username: string, superuser: boolean, known?: { username: string; password: string }) => {
    const exists = await identity.identity.findUser(username);
    if (exists && known?.username === username) return known;
    const password = randomBytes(12).toString('base64url');
    await identity.identity.createUser({ username, password, superuser, email: `${username}@example.com` }, { replace: true });
    return { username, password };
  };
  const admin = config.SUPERUSER_USERNAME ? undefined : await ensure('admin', true, saved.finance?.admin);
  const user = await ensure('demo', false, saved.finance?.user);
  const row = await identity.identity.findUser(user.username);
  for (const f of DEMO_FUNDING) await ledger.ledger.fund(row!.id, f.currency, f.amount, f.transferId, 'demo_funding');
  const finance: FinanceDemo = { admin, user };
  writeDemoFile(config, { finance });
  return finance;
}

/**
 * The demo finance node activates with the registry over HTTP, as a customer's node does
 * (`finance:activate`: register, check out the licence token, heartbeats), unless the operator
 * configured a licence of their own. The node never reaches the registry in-process.
 */
export async function activateDemoNode(config: Config, node: NodeServices, registryUrl: string, licenceKey: string): Promise<boolean> {
  const configured = config.VENDOR_LICENSE_TOKEN !== undefined || config.VENDOR_PUBLIC_KEY !== undefined || config.VENDOR_LICENSE_ENGINE_URL !== undefined;
  if (configured) return false;
  await node.registry.activate({ url: registryUrl, licenceKey });
  return true;
}

/**
 * `npm start` gives the finance node the public key of the registry it runs beside, as the release images
 * carry the key of the registry that ships them: the node trusts licences that registry signed, and learns
 * no other key from a licence.
 */
export function shipRegistryKey(node: NodeServices, registryPublicKey: string): void {
  node.node.shipVendorKey(registryPublicKey);
}

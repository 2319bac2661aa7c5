import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../lib/config';
import { writePrivateFile } from '../lib/private-file';
import type { AccessServices } from '../subgraphs/predictions/access/services';
import type { IdentityServices } from '../subgraphs/finance/identity/services';
import type { LedgerServices } from '../subgraphs/finance/ledger/services';
import type { NodeServices } from '../subgraphs/finance/node/services';
import type { LicensingServices } from '../subgraphs/registry/licensing/services';
import { ContainerEngine } from '../lib/container-engine';
import type { Logger } from '../lib/logger';

/**
 * Development only: the demo credentials of every product are kept in DATA_DIR/demo-credentials.json
 * (mode 600 from its creation) so that every `npm start` can print working ones. The database still
 * holds only hashes. In production nothing is written: a generated administrator key is shown once.
 */
export const demoFile = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'demo-credentials.json');

function readDemoFile(config: Config): Record<string, unknown> {
  const file = demoFile(config);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

/** Writes one product's entries, keeping the others'. */
function writeDemoFile(config: Config, entries: Record<string, unknown>): void {
  mkdirSync(config.dataDir, { recursive: true });
  writePrivateFile(demoFile(config), JSON.stringify({ ...readDemoFile(config), ...entries }, null, 2));
}

export interface DemoCredentials {
  adminKey?: string;
  freeKey: string;
  /** The Telegram bot's key (Enterprise plan, no daily limit), when asked for. */
  botKey?: string;
}

/** The prediction API's demo keys: the administrator key (unless configured), a Free-plan key, the bot's key. */
export async function demoCredentials(
  config: Config,
  access: AccessServices,
  generated: Record<string, string>,
  opts: { botKey?: boolean } = {},
): Promise<DemoCredentials> {
  const saved = readDemoFile(config) as Partial<DemoCredentials>;
  const works = async (key: string | undefined) => {
    if (!key) return false;
    try {
      await access.apiKeys.authenticate(key, { meter: false });
      return true;
    } catch {
      return false;
    }
  };
  const adminKey = config.ADMIN_API_KEY ?? generated.ADMIN_API_KEY ?? ((await works(saved.adminKey)) ? saved.adminKey : undefined);
  const freeKey = (await works(saved.freeKey))
    ? saved.freeKey!
    : (await access.apiKeys.create({ name: 'Demo key (Free plan)', plan: 'free', email: 'demo@example.com' })).key;
  let botKey = saved.botKey;
  if (opts.botKey && !(await works(botKey))) botKey = (await access.apiKeys.create({ name: 'Telegram bot (development)', plan: 'enterprise' })).key;
  writeDemoFile(config, { adminKey: config.ADMIN_API_KEY ? undefined : adminKey, freeKey, botKey });
  return { adminKey, freeKey, botKey };
}

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
 * The registry's demo licence (an Active licence of `finance-node`): its key, kept in the demo file so
 * that every start prints it.
 */
export async function registryDemoLicence(config: Config, licensing: LicensingServices): Promise<string> {
  const { licenceKey } = await licensing.demoLicence();
  writeDemoFile(config, { licenceKey });
  return licenceKey;
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
export async function shipRegistryKey(node: NodeServices, licensing: LicensingServices): Promise<void> {
  node.node.shipVendorKey((await licensing.signing.publicKey()).publicKey);
}

/**
 * The banner's line on the release images the demo registry distributes: those built
 * on this machine (`npm run images`), shipped in the background as the newest stable release when this
 * build is not shipped yet; otherwise how to build them (the placeholder archives cannot run).
 */
export async function releaseImagesLine(licensing: LicensingServices, logger: Logger): Promise<string> {
  const label = 'Release images         ';
  // loaded here, when the registry runs: a finance node alone never loads the registry's release code
  /* eslint-disable @typescript-eslint/no-require-imports -- synchronous and on demand, as subgraphs/products.ts loads products */
  const { builtImage, shipBuiltImages } =
    require('../subgraphs/registry/licensing/release-images') as typeof import('../subgraphs/registry/licensing/release-images');
  const { DEMO_PRODUCT } = require('../subgraphs/registry/licensing/domain/demo') as typeof import('../subgraphs/registry/licensing/domain/demo');
  /* eslint-enable @typescript-eslint/no-require-imports */
  let timer: NodeJS.Timeout | undefined;
  const engine = await Promise.race([
    ContainerEngine.detect().catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000).unref())),
  ]);
  clearTimeout(timer);
  if (!engine || !(await engine.imageId(builtImage('backend')))) {
    return `${label}not built here: the installer below would install placeholder images that cannot run. Build them with \`npm run images\` (podman or docker) while this runs (they then carry this registry's key), and start again`;
  }
  void shipBuiltImages(licensing, engine, DEMO_PRODUCT, (line) => logger.info(line))
    .then((r) => {
      if (r.built && r.shipped) logger.info(`the release images built here are shipped as ${DEMO_PRODUCT} ${r.version}: the installer installs them`);
    })
    .catch((err: unknown) => logger.error({ err }, 'the release images built here could not be shipped'));
  return `${label}${builtImage('backend')} and its frontend, built here: the registry distributes them as its newest stable release (a new build is shipped in the background; the log says when)`;
}

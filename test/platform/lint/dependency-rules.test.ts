/**
 * The dependency rules (.dependency-cruiser.cjs, run by `npm run lint`) refuse what they forbid and
 * let the rest through: one tiny tree of files, each case under paths of its own, cruised once with
 * the repository's own configuration, so a rule that stopped matching fails here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../../lib/paths';

const root = projectRoot();
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

/** Runs the repository's rules over `files` (path → source) laid out in a fresh folder; each violation's rule and file. */
function cruise(files: Record<string, string>): Promise<{ rule: string; from: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-depcruise-'));
  copyFileSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const roots = [...new Set(Object.keys(files).map((p) => p.split('/')[0]))];
  return new Promise((resolve, reject) => {
    execFile(depcruise, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...roots], { cwd: dir }, (err, stdout) => {
      rmSync(dir, { recursive: true, force: true });
      try {
        const result = JSON.parse(stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
        resolve(result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from })));
      } catch {
        reject(err ?? new Error(`depcruise printed no JSON: ${stdout}`));
      }
    });
  });
}

const exporting = 'export const x = 1;\n';
const importing = (path: string) => `import { x } from '${path}';\nexport const y = x;\n`;

/** Every case's files; each case's importing file names it. */
const FILES: Record<string, string> = {
  // a cycle
  'lib/cycle-a.ts': `import { b } from './cycle-b';\nexport const a = b;\n`,
  'lib/cycle-b.ts': `import { a } from './cycle-a';\nexport const b = () => a;\n`,
  // lib/ importing a product
  'lib/config.ts': importing('../subgraphs/finance/node/index'),
  'lib/config.spec.ts': importing('../subgraphs/finance/node/index'),
  'subgraphs/finance/node/index.ts': exporting,
  // one product importing another; and what a product may import
  'subgraphs/finance/node/domain/cross.ts': importing('../../../registry/licensing/domain/keys'),
  'subgraphs/registry/licensing/domain/keys.ts': exporting,
  'subgraphs/finance/node/domain/allowed.ts': `${importing('../../kernel/gate')}import { z } from '../../../../lib/money';\nexport const w = z;\n`,
  'subgraphs/finance/kernel/gate.ts': exporting,
  'lib/money.ts': 'export const z = 2;\n',
  // REST reaching a domain, or another product
  'rest-adapter/finance/routes/domain.ts': importing('../../../subgraphs/finance/ledger/domain/limits'),
  'subgraphs/finance/ledger/domain/limits.ts': exporting,
  'rest-adapter/finance/routes/vocabulary.ts': importing('../../../subgraphs/finance/ledger/vocabulary'),
  'subgraphs/finance/ledger/vocabulary.ts': exporting,
  'rest-adapter/finance/routes/other-product.ts': importing('../../../subgraphs/predictions/access/credential'),
  // REST past the public face: services that wire a store, the kernel's gate; its contract is the face
  'rest-adapter/finance/routes/services.ts': importing('../../../subgraphs/finance/ledger/services'),
  'subgraphs/finance/ledger/services.ts': exporting,
  'rest-adapter/finance/routes/gate.ts': importing('../../../subgraphs/finance/kernel/gate'),
  'rest-adapter/finance/routes/contract.ts': importing('../../../subgraphs/finance/kernel/contract'),
  'subgraphs/finance/kernel/contract.ts': exporting,
  'rest-adapter/finance/routes/manifest.ts': importing('../../../subgraphs/finance/product'),
  // the bot and a client past the face; a client importing the REST adapter
  'bot/handlers.ts': importing('../subgraphs/predictions/predictions/domain/model'),
  'subgraphs/predictions/predictions/domain/model.ts': exporting,
  'bot/words.ts': importing('../subgraphs/predictions/predictions/vocabulary'),
  'subgraphs/predictions/predictions/vocabulary.ts': exporting,
  'clients/finance-web/types.ts': importing('../../rest-adapter/finance/index'),
  'rest-adapter/finance/index.ts': exporting,
  // the console kit and the REST core reaching a product
  'rest-adapter/console/pages.spec.ts': importing('../finance/admin/routes'),
  'rest-adapter/finance/admin/routes.ts': exporting,
  'rest-adapter/console/kit.ts': `${importing('../core/route')}import { x as v } from '../../subgraphs/finance/kernel/contract';\nexport const u = v;\n`,
  'rest-adapter/core/route.ts': exporting,
  'rest-adapter/core/stages/parse.ts': importing('../../console/kit'),
  // a subgraph's schema importing a sibling's (the shared Money type lives in the kernel)
  'subgraphs/finance/cards/schema/types.ts': importing('../../ledger/schema/money'),
  'subgraphs/finance/ledger/schema/money.ts': exporting,
  'subgraphs/finance/crypto/schema/types.ts': importing('../../kernel/money'),
  'subgraphs/finance/kernel/money.ts': exporting,
  'subgraphs/predictions/access/credential.ts': exporting,
  // another domain's store; a resolver calling its store; a row type
  'subgraphs/finance/payments/domain/store.ts': importing('../../ledger/store/ledger-store'),
  'subgraphs/finance/ledger/store/ledger-store.ts': 'export const x = 1;\nexport interface Row { id: string }\n',
  'subgraphs/finance/ledger/schema/calls.ts': importing('../store/ledger-store'),
  'subgraphs/finance/ledger/schema/row-type.ts': `import type { Row } from '../store/ledger-store';\nexport const f = (r: Row) => r;\n`,
  // the gateway
  'gateway/loads.ts': importing('../subgraphs/finance/identity/credential'),
  'subgraphs/finance/identity/credential.ts': exporting,
  'gateway/catalogue.ts': importing('../subgraphs/products'),
  'subgraphs/products.ts': exporting,
  // the entry points: the product list, the REST surface table and the platform, never a product's code
  'bin/start.ts': importing('../subgraphs/products'),
  'bin/platform.ts': `import { z } from '../lib/money';\nimport { x } from '../rest-adapter/core/route';\nimport { y } from '../gateway/catalogue';\nimport { readFileSync } from 'node:fs';\nexport const all = [z, x, y, readFileSync];\n`,
  'bin/demo.ts': importing('../subgraphs/finance/ledger/domain/ledger'),
  'bin/surface.ts': importing('../rest-adapter/finance/index'),
  'bin/bot.ts': importing('../bot/words'),
  // the prediction API's start runs its bot, and reaches nothing else above the subgraphs; no other product's start runs it
  'subgraphs/predictions/start.ts': `${importing('../../bot/words')}import { y as g } from '../../gateway/catalogue';\nexport const h = g;\n`,
  'subgraphs/finance/start.ts': importing('../../bot/words'),
  // a heavy manifest
  'subgraphs/finance/product.ts': importing('./ledger/domain/ledger'),
  'subgraphs/finance/ledger/domain/ledger.ts': exporting,
  // test fixtures: platform/ is product-free; a product's tests and specs use their own product's
  'test/support/platform/http.ts': exporting,
  'test/support/platform/app.ts': importing('../finance/node'),
  'test/support/platform/products.ts': importing('../../../subgraphs/finance/node/index'),
  'test/support/finance/node.ts': exporting,
  'test/support/registry/registry.ts': exporting,
  'test/support/predictions/bot.ts': importing('../registry/registry'),
  'test/support/finance/uses-platform.ts': importing('../platform/http'),
  'test/finance/contract/other-product.test.ts': importing('../../support/predictions/bot'),
  'test/finance/contract/licensed.test.ts': importing('../../support/registry/registry'),
  'test/registry/contract/finance-fixture.test.ts': importing('../../support/finance/node'),
  'test/platform/e2e/all-products.test.ts': importing('../../support/finance/node'),
  'lib/money.spec.ts': importing('../test/support/finance/node'),
  'subgraphs/registry/licensing/domain/keys.spec.ts': importing('../../../../test/support/finance/node'),
  'subgraphs/finance/ledger/domain/ledger.spec.ts': importing('../../../../test/support/finance/node'),
};

let found: { rule: string; from: string }[];
beforeAll(async () => {
  found = await cruise(FILES);
}, 120_000);

/** The rules that refused imports of the file. */
const refused = (file: string) =>
  found
    .filter((v) => v.from === file)
    .map((v) => v.rule)
    .sort();

it('refuses an import cycle', () => {
  expect(refused('lib/cycle-a.ts')).toEqual(['no-circular']);
});

it('refuses a product in lib/, and in the specs of lib/', () => {
  expect(refused('lib/config.ts')).toEqual(['lib-is-platform']);
  expect(refused('lib/config.spec.ts')).toEqual(['lib-specs-are-platform']);
});

it("refuses one product importing another's code, and lets it import lib/ and its own folders", () => {
  expect(refused('subgraphs/finance/node/domain/cross.ts')).toEqual(['products-are-units']);
  expect(refused('subgraphs/finance/node/domain/allowed.ts')).toEqual([]);
});

it("refuses a REST route reaching past a product's public face, or another product", () => {
  expect(refused('rest-adapter/finance/routes/domain.ts')).toEqual(['rest-bot-clients-see-public-faces']);
  expect(refused('rest-adapter/finance/routes/services.ts')).toEqual(['rest-bot-clients-see-public-faces']);
  expect(refused('rest-adapter/finance/routes/gate.ts')).toEqual(['rest-bot-clients-see-public-faces']);
  expect(refused('rest-adapter/finance/routes/other-product.ts')).toEqual(['rest-surface-of-its-product']);
  // the public face: published words (vocabulary.ts), contract constants (contract.ts), the manifest
  expect(refused('rest-adapter/finance/routes/vocabulary.ts')).toEqual([]);
  expect(refused('rest-adapter/finance/routes/contract.ts')).toEqual([]);
  expect(refused('rest-adapter/finance/routes/manifest.ts')).toEqual([]);
});

it('refuses the bot and the clients reaching past the public face, and a client importing the REST adapter', () => {
  expect(refused('bot/handlers.ts')).toEqual(['rest-bot-clients-see-public-faces']);
  expect(refused('bot/words.ts')).toEqual([]);
  expect(refused('clients/finance-web/types.ts')).toEqual(['clients-sit-below-rest']);
});

it('keeps the console kit and the REST core product-free (the kit may use the core, not the reverse)', () => {
  expect(refused('rest-adapter/console/pages.spec.ts')).toEqual(['console-kit-is-product-free']);
  // even a product's public face: the kit knows no product
  expect(refused('rest-adapter/console/kit.ts')).toEqual(['console-kit-is-product-free']);
  expect(refused('rest-adapter/core/stages/parse.ts')).toEqual(['rest-core-is-product-free']);
});

it("refuses a subgraph's schema importing a sibling's schema, and lets it import the kernel", () => {
  expect(refused('subgraphs/finance/cards/schema/types.ts')).toEqual(['subgraphs-share-through-the-kernel']);
  expect(refused('subgraphs/finance/crypto/schema/types.ts')).toEqual([]);
});

it("refuses a domain importing another domain's store, and resolvers calling their store (a row type is no call)", () => {
  expect(refused('subgraphs/finance/payments/domain/store.ts')).toEqual(['a-subgraph-owns-its-tables']);
  expect(refused('subgraphs/finance/ledger/schema/calls.ts')).toEqual(['schema-calls-domain-not-store']);
  expect(refused('subgraphs/finance/ledger/schema/row-type.ts')).toEqual([]);
});

it('refuses the gateway loading a subgraph, and lets it read the product catalogue', () => {
  expect(refused('gateway/loads.ts')).toEqual(['gateway-loads-no-subgraph']);
  expect(refused('gateway/catalogue.ts')).toEqual([]);
});

it("refuses an entry point importing a product's code, a product's REST surface or the bot, and lets it read the product list and the platform", () => {
  expect(refused('bin/demo.ts')).toEqual(['bin-reads-the-product-list']);
  expect(refused('bin/surface.ts')).toEqual(['bin-reads-the-product-list']);
  expect(refused('bin/bot.ts')).toEqual(['bin-reads-the-product-list']);
  expect(refused('bin/start.ts')).toEqual([]);
  expect(refused('bin/platform.ts')).toEqual([]);
});

it("lets the prediction API's start run its bot, and nothing else above the subgraphs; no other product's start", () => {
  expect(refused('subgraphs/predictions/start.ts')).toEqual(['the-prediction-api-starts-its-bot']);
  expect(refused('subgraphs/finance/start.ts')).toEqual(['products-below-entry-points']);
});

it('keeps the product manifests light', () => {
  expect(refused('subgraphs/finance/product.ts')).toEqual(['manifests-stay-light']);
});

it("keeps test/support/platform/ product-free and each product's tests and specs on their own product's fixtures", () => {
  expect(refused('test/support/platform/app.ts')).toEqual(['test-platform-support-is-product-free']);
  expect(refused('test/support/platform/products.ts')).toEqual(['test-platform-support-is-product-free']);
  expect(refused('test/support/predictions/bot.ts')).toEqual(['test-product-support-is-its-own']);
  expect(refused('test/support/finance/uses-platform.ts')).toEqual([]);
  expect(refused('test/finance/contract/other-product.test.ts')).toEqual(['product-tests-use-their-own-support']);
  expect(refused('test/registry/contract/finance-fixture.test.ts')).toEqual(['product-tests-use-their-own-support']);
  // the declared cross-product contract (the registry licenses finance nodes), and test/platform/, where products meet
  expect(refused('test/finance/contract/licensed.test.ts')).toEqual([]);
  expect(refused('test/platform/e2e/all-products.test.ts')).toEqual([]);
  expect(refused('lib/money.spec.ts')).toEqual(['platform-specs-use-platform-fixtures']);
  expect(refused('subgraphs/registry/licensing/domain/keys.spec.ts')).toEqual(['product-specs-use-their-own-fixtures']);
  expect(refused('subgraphs/finance/ledger/domain/ledger.spec.ts')).toEqual([]);
});

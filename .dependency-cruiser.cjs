/**
 * The dependency rules of docs/architecture.md, checked by `npm run lint` (dependency-cruiser).
 * Products: subgraphs/<product>/… with product = predictions | registry | finance; each subgraph
 * (domain) is subgraphs/<product>/<domain>/{schema,domain,store}. `$1` in a `pathNot` is the group
 * the `from` path captured.
 */
const PRODUCT = '(predictions|registry|finance)';
const TESTS = '\\.(spec|test)\\.ts$';
/** A product's public face: the only modules of a subgraph that REST, the bot and the clients may import. */
const PUBLIC_FACE = ['^subgraphs/[^/]+/product\\.ts$', '^subgraphs/[^/]+/[^/]+/(credential|vocabulary|contract)\\.ts$'];
/** The prediction API's part of `npm start`, which starts its Telegram bot (bot/). */
const PREDICTIONS_START = '^subgraphs/predictions/start\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-is-platform',
      comment: 'lib/ is the platform: it imports no product, no gateway, adapter, client or entry point.',
      severity: 'error',
      from: { path: '^lib/', pathNot: TESTS },
      to: { path: '^(subgraphs|rest-adapter|gateway|bot|clients|bin|bench|test)/' },
    },
    {
      name: 'lib-specs-are-platform',
      comment: 'The specs of lib/ test the platform with shared fixtures (test/support), never a product.',
      severity: 'error',
      from: { path: `^lib/.+${TESTS}` },
      to: { path: '^(subgraphs|rest-adapter|gateway|bot|clients|bin)/' },
    },
    {
      name: 'products-are-units',
      comment:
        'A product imports lib/, its own folders and declared cross-product contracts (lib/licence-token.ts); it reaches another product only through the supergraph or HTTP.',
      severity: 'error',
      from: { path: `^subgraphs/${PRODUCT}/` },
      to: { path: '^subgraphs/', pathNot: '^subgraphs/$1/' },
    },
    {
      name: 'products-below-entry-points',
      comment: 'Subgraphs never import the gateway, the REST adapter, the bot, an entry point or a test.',
      severity: 'error',
      from: { path: '^subgraphs/', pathNot: [TESTS, PREDICTIONS_START] },
      to: { path: '^(gateway|rest-adapter|bot|bin|bench|test)/' },
    },
    {
      name: 'the-prediction-api-starts-its-bot',
      comment:
        "The prediction API's part of `npm start` (subgraphs/predictions/start.ts, loaded on demand by its manifest) starts its Telegram bot: it may import the bot, and nothing else above the subgraphs.",
      severity: 'error',
      from: { path: PREDICTIONS_START },
      to: { path: '^(gateway|rest-adapter|bin|bench|test)/' },
    },
    {
      name: 'bin-reads-the-product-list',
      comment:
        "The entry points know the products only through the product list (subgraphs/products.ts, whose manifests declare each product's subgraphs, demo seed, processes and CLI commands) and the REST surface table; otherwise they import the platform (lib/, the gateway, the REST core), each other and packages. An allow-list: a new folder is refused until it is listed here.",
      severity: 'error',
      from: { path: '^bin/', pathNot: TESTS },
      to: {
        pathNot: ['^bin/', '^lib/', '^gateway/', '^rest-adapter/core/', '^rest-adapter/surfaces\\.ts$', '^subgraphs/products\\.ts$', '(^|/)node_modules/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'specs-use-shared-fixtures',
      comment: 'A spec beside the code uses the shared fixtures of test/support/, never another test file or a benchmark.',
      severity: 'error',
      from: { path: '\\.spec\\.ts$' },
      to: { path: '^(test|bench)/', pathNot: '^test/support/' },
    },
    {
      name: 'only-the-registry-builds-clients',
      comment: 'The registry builds the clients it distributes (whitelabel web client, mobile packages); no other product imports clients/.',
      severity: 'error',
      from: { path: '^subgraphs/', pathNot: '^subgraphs/registry/' },
      to: { path: '^clients/' },
    },
    {
      name: 'gateway-loads-no-subgraph',
      comment: 'The gateway learns credential kinds and cache policies from the product catalogue only; it never loads a subgraph.',
      severity: 'error',
      from: { path: '^gateway/', pathNot: TESTS },
      to: { path: '^(subgraphs|rest-adapter|bin)/', pathNot: '^subgraphs/products\\.ts$' },
    },
    {
      name: 'manifests-stay-light',
      comment:
        "The product catalogue and each product's manifest import only credential kinds, cache policies, settings and store definitions (subgraph code loads on demand, by require, in processes that run it).",
      severity: 'error',
      from: { path: '^subgraphs/(products|[^/]+/product)\\.ts$' },
      to: {
        path: '^subgraphs/',
        pathNot: ['^subgraphs/[^/]+/product\\.ts$', '^subgraphs/[^/]+/settings\\.ts$', '/credential\\.ts$', '/cache\\.ts$'],
        dependencyTypesNot: ['require', 'type-import', 'type-only'],
      },
    },
    {
      name: 'settings-are-declarations',
      comment:
        "A product's settings (subgraphs/<product>/settings.ts) are a schema built from zod and lib/'s helpers; every process loads them, so they import no domain code (only the pure values they share with it: the shape of an operator-chosen key, the currencies).",
      severity: 'error',
      from: { path: '^subgraphs/[^/]+/settings\\.ts$' },
      to: {
        path: '^(subgraphs|rest-adapter|gateway|bot|clients|bin|bench|test)/',
        pathNot: ['^subgraphs/predictions/access/operator-keys\\.ts$', '^subgraphs/finance/kernel/currencies\\.ts$'],
      },
    },
    {
      name: 'rest-bot-clients-see-public-faces',
      comment:
        'REST, the bot and the clients import from a product only its public face: its manifest (product.ts), credential kinds (credential.ts), published words (vocabulary.ts) and contract constants (contract.ts); everything else they reach through GraphQL operations. Their entry points load the configuration from the product catalogue (subgraphs/products.ts).',
      severity: 'error',
      from: { path: '^(rest-adapter|bot|clients)/' },
      to: { path: '^subgraphs/', pathNot: [...PUBLIC_FACE, '^subgraphs/products\\.ts$'] },
    },
    {
      name: 'rest-surface-of-its-product',
      comment: "A product's REST surface imports only its own product's declarations (credentials, contract constants).",
      severity: 'error',
      from: { path: `^rest-adapter/${PRODUCT}/` },
      to: { path: '^subgraphs/', pathNot: '^subgraphs/$1/' },
    },
    {
      name: 'rest-core-is-product-free',
      comment: 'The REST machinery (rest-adapter/core) knows no product, and not the console kit built on it.',
      severity: 'error',
      from: { path: '^rest-adapter/core/' },
      to: { path: '^(subgraphs|rest-adapter/(?!core/))' },
    },
    {
      name: 'console-kit-is-product-free',
      comment: "The console kit (rest-adapter/console) builds every product's console: it imports the REST core, never a product (its specs neither).",
      severity: 'error',
      from: { path: '^rest-adapter/console/' },
      to: { path: '^(subgraphs|rest-adapter/(?!core/|console/))' },
    },
    {
      name: 'clients-sit-below-rest',
      comment:
        "The clients are served by the REST surfaces (which import their build settings); a client never imports the REST adapter (the finance surface generates its client's API types).",
      severity: 'error',
      from: { path: '^clients/' },
      to: { path: '^rest-adapter/' },
    },
    {
      name: 'schema-calls-domain-not-store',
      comment: "A subgraph's schema/ (resolvers) calls its domain/, never its store/ (row types may be imported as types).",
      severity: 'error',
      from: { path: '^subgraphs/[^/]+/([^/]+)/schema/' },
      to: { path: '^subgraphs/[^/]+/$1/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'a-subgraph-owns-its-tables',
      comment: "A domain never imports another domain's store: it reaches that data through the supergraph.",
      severity: 'error',
      from: { path: '^subgraphs/[^/]+/([^/]+)/' },
      to: { path: '^subgraphs/[^/]+/[^/]+/store/', pathNot: '^subgraphs/[^/]+/$1/store/' },
    },
    {
      name: 'subgraphs-share-through-the-kernel',
      comment: "A subgraph's schema never imports a sibling subgraph's schema: what several share (the Money type) lives in the product's kernel.",
      severity: 'error',
      from: { path: '^subgraphs/[^/]+/([^/]+)/' },
      to: { path: '^subgraphs/[^/]+/[^/]+/schema/', pathNot: '^subgraphs/[^/]+/$1/schema/' },
    },
    // ---- test fixtures (test/support/): platform/ knows no product; a product's fixtures and tests use their own ----
    {
      name: 'test-platform-support-is-product-free',
      comment:
        "test/support/platform/ (apps, databases, HTTP/GraphQL/browser helpers) serves every product: it imports no product's fixtures or code, only the product catalogue (subgraphs/products.ts). The jest global setup is the run's composition root (the template database holds every product's seed) and is exempt.",
      severity: 'error',
      from: { path: '^test/support/platform/', pathNot: '^test/support/platform/global-setup\\.ts$' },
      to: { path: [`^test/support/${PRODUCT}/`, `^subgraphs/${PRODUCT}/`] },
    },
    {
      name: 'test-product-support-is-its-own',
      comment: "A product's fixtures (test/support/<product>/) import the platform's and their own product's, never another product's.",
      severity: 'error',
      from: { path: `^test/support/${PRODUCT}/` },
      to: { path: `^test/support/${PRODUCT}/`, pathNot: '^test/support/$1/' },
    },
    {
      name: 'product-tests-use-their-own-support',
      comment:
        "A product's tests (test/<product>/) use the platform's fixtures and their own product's. The one exception is a declared cross-product contract: the registry licenses finance nodes (lib/licence-token.ts), so finance's tests may make licences with test/support/registry/. A test about how products meet otherwise belongs in test/platform/, which may use any fixtures.",
      severity: 'error',
      from: { path: `^test/${PRODUCT}/` },
      to: { path: `^test/support/${PRODUCT}/`, pathNot: ['^test/support/$1/', '^test/support/registry/registry\\.ts$'] },
    },
    {
      name: 'platform-specs-use-platform-fixtures',
      comment: 'The specs beside platform code (lib/, gateway/, the REST core) use test/support/platform/ only.',
      severity: 'error',
      from: { path: `^(lib|gateway|rest-adapter/core)/.+${TESTS}` },
      to: { path: '^test/support/', pathNot: '^test/support/platform/' },
    },
    {
      name: 'product-specs-use-their-own-fixtures',
      comment: "The specs beside a product's code use the platform's fixtures and their own product's.",
      severity: 'error',
      from: { path: `^(?:subgraphs|rest-adapter)/${PRODUCT}/.+${TESTS}` },
      to: { path: '^test/support/', pathNot: ['^test/support/platform/', '^test/support/$1/'] },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    moduleSystems: ['cjs', 'es6'],
  },
};

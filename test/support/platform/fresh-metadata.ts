import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * type-graphql keeps its decorators' metadata on the global object, which outlives a test file in an
 * in-band run: each file's modules would add theirs to every file's before, and building a schema
 * walks all of it (quadratic in the files run so far). Each file starts with none.
 */
delete (global as { TypeGraphQLMetadataStorage?: unknown }).TypeGraphQLMetadataStorage;

/**
 * A query on a pool inside a transaction on the same pool (a latent deadlock under load: lib/database.ts,
 * guardNestedConnections) fails in every test, and in the processes tests start.
 */
process.env.DB_NESTED_CONNECTIONS = 'fail';

/** Each set of subgraphs is composed once for the whole run, not once per boot (gateway/compose.ts). */
process.env.COMPOSITION_CACHE_DIR ??= join(tmpdir(), 'matchday-composition');

import { Supergraph } from '@apollo/federation-internals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { projectRoot } from '../../../lib/paths';
import { loadOperations } from '../../../rest-adapter/core/operations';
import { surfaceEntries } from '../../../rest-adapter/surfaces';

/**
 * Every persisted operation of every REST surface parses and validates against the committed
 * supergraph's API schema: at run time the gateway never rejects a surface's own document (the
 * core would answer that with a 500, as a fault of ours). New surfaces join by being in SURFACES.
 */
const apiSchema = Supergraph.build(readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8'))
  .apiSchema()
  .toGraphQLJSSchema();

const cases = surfaceEntries().flatMap(([name, { surface }]) =>
  [
    ...loadOperations(
      surface.product,
      surface.routes.flatMap((r) => (r.operation && !r.reply ? [r.operation] : [])),
    ).entries(),
  ].map(([operation, document]) => ({ name, operation, document })),
);

it('has persisted operations to check', () => {
  expect(cases.length).toBeGreaterThan(0);
});

it.each(cases)('$name: $operation is valid against the supergraph', ({ document }) => {
  expect(validate(apiSchema, parse(document)).map((e) => e.message)).toEqual([]);
});

/* eslint-disable @typescript-eslint/no-require-imports -- the order of loading is the point of this module */
import Module from 'node:module';
import type { executeQueryPlan as ExecuteQueryPlan } from '@apollo/gateway/dist/executeQueryPlan';
import type { buildOperationContext as BuildOperationContext } from '@apollo/gateway/dist/operationContext';

/**
 * @apollo/gateway's query plan executor, without the rest of @apollo/gateway.
 *
 * The executor's module loads `@apollo/gateway/dist/utilities/opentelemetry`, which loads, at its top,
 * OpenTelemetry's metrics SDK, its OTLP exporter, four cloud providers' resource detectors and the
 * incubating semantic conventions: about 9.5 MB of JavaScript heap and 35 MB of RSS in a bare Node.js
 * process, for one use: ApolloGateway's constructor starts a meter provider that sends the host's
 * figures to Apollo (usage-reporting.api.apollographql.com) every hour unless
 * APOLLO_TELEMETRY_DISABLED is set. This project runs no ApolloGateway (gateway/supergraph-executor.ts
 * plans and executes itself) and records no traces, so that module is replaced, before the executor
 * loads, by the light one below: the same names, spans that record nothing (as OpenTelemetry's API
 * gives when no tracer provider is registered, which is the case here), and no meter provider at all.
 *
 * test/platform/federation/apollo-execution.test.ts holds the replacement's names to the real module's
 * (an upgrade of @apollo/gateway that uses a new one fails there) and shows, in a process of its own,
 * that the gateway's modules load none of OpenTelemetry's SDK. Under jest (which keeps its own module
 * registry) the real module loads; the executor behaves the same with either.
 */

const NOOP_SPAN = {
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  recordException: () => undefined,
  end: () => undefined,
  isRecording: () => false,
  spanContext: () => ({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 }),
};

/** `startActiveSpan(name, [options, [context,]] fn)`: runs fn with a span that records nothing. */
const tracer = {
  startSpan: () => NOOP_SPAN,
  startActiveSpan: (...args: unknown[]) => (args[args.length - 1] as (span: typeof NOOP_SPAN) => unknown)(NOOP_SPAN),
};

const noMetrics = () => {
  throw new Error('this gateway sends no usage metrics to Apollo (gateway/apollo-execution.ts)');
};

/** The replacement of `@apollo/gateway/dist/utilities/opentelemetry`: its exports, light. */
export const TELEMETRY_REPLACEMENT = {
  OpenTelemetrySpanNames: {
    REQUEST: 'gateway.request',
    PLAN: 'gateway.plan',
    FETCH: 'gateway.fetch',
    POST_PROCESSING: 'gateway.postprocessing',
    EXECUTE: 'gateway.execute',
    VALIDATE: 'gateway.validate',
  },
  OpenTelemetryAttributeNames: {
    GRAPHQL_DOCUMENT: 'graphql.document',
    GRAPHQL_OPERATION_NAME: 'graphql.operation.name',
    GRAPHQL_OPERATION_NAME_DEPRECATED: 'operationName',
    GRAPHQL_OPERATION_TYPE: 'graphql.operation.type',
  },
  APOLLO_OTEL_METRICS_URL: 'https://usage-reporting.api.apollographql.com/v1/metrics',
  tracer,
  // span attributes and recorded exceptions go to spans that record nothing
  requestContextSpanAttributes: () => ({}),
  operationContextSpanAttributes: () => ({}),
  recordExceptions: () => undefined,
  createDataCollectionMeterProvider: noMetrics,
  createDataCollectionExporter: noMetrics,
};

export const TELEMETRY_MODULE = '@apollo/gateway/dist/utilities/opentelemetry';

/** Puts the replacement in Node's module cache, unless the real module is already there. */
function replaceTelemetryModule(): void {
  const path = require.resolve(TELEMETRY_MODULE);
  const cache = require.cache as Record<string, NodeJS.Module | undefined> | undefined;
  if (!cache || cache[path]) return;
  try {
    const replacement = new Module(path);
    replacement.filename = path;
    replacement.loaded = true;
    replacement.exports = TELEMETRY_REPLACEMENT;
    cache[path] = replacement;
  } catch {
    // a module system without a writable cache (jest): the real module loads
  }
}

replaceTelemetryModule();

export const { executeQueryPlan } = require('@apollo/gateway/dist/executeQueryPlan') as { executeQueryPlan: typeof ExecuteQueryPlan };
export const { buildOperationContext } = require('@apollo/gateway/dist/operationContext') as { buildOperationContext: typeof BuildOperationContext };

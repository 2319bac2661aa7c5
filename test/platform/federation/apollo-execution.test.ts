import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { TELEMETRY_MODULE, TELEMETRY_REPLACEMENT } from '../../../gateway/apollo-execution';

/**
 * gateway/apollo-execution.ts loads @apollo/gateway's query plan executor with a light replacement of
 * its telemetry module (which loads OpenTelemetry's metrics SDK, exporters and cloud detectors, and
 * backs ApolloGateway's hourly report to Apollo). Held here: the replacement has every name the real
 * module exports (an upgrade that adds one fails), its spans run the code they wrap, and a process
 * that loads the gateway loads none of OpenTelemetry's SDK, no ApolloGateway and no HTTP cache.
 */
const ROOT = projectRoot();

it('the replacement exports every name of the real module, and nothing else', () => {
  // jest keeps its own module registry: here the real module loads
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const real = require(TELEMETRY_MODULE) as Record<string, unknown>;
  expect(Object.keys(TELEMETRY_REPLACEMENT).sort()).toEqual(Object.keys(real).sort());
  expect(TELEMETRY_REPLACEMENT.OpenTelemetrySpanNames).toEqual({ ...(real.OpenTelemetrySpanNames as object) });
  expect(TELEMETRY_REPLACEMENT.OpenTelemetryAttributeNames).toEqual({ ...(real.OpenTelemetryAttributeNames as object) });
  expect(TELEMETRY_REPLACEMENT.APOLLO_OTEL_METRICS_URL).toBe(real.APOLLO_OTEL_METRICS_URL);
});

it("the replacement's spans run what they wrap, whatever arguments come first, and record nothing", async () => {
  const { tracer } = TELEMETRY_REPLACEMENT;
  expect(tracer.startActiveSpan('a', (span: { isRecording(): boolean }) => span.isRecording())).toBe(false);
  expect(tracer.startActiveSpan('a', { attributes: {} }, () => 1)).toBe(1);
  expect(await tracer.startActiveSpan('a', {}, undefined, async () => 2)).toBe(2);
  expect(() => TELEMETRY_REPLACEMENT.createDataCollectionExporter()).toThrow(/no usage metrics/);
});

it("a process that loads the gateway loads none of OpenTelemetry's SDK, no ApolloGateway and no HTTP cache", () => {
  const script = `
    require(${JSON.stringify(join(ROOT, 'dist/bin/app.js'))});
    require(${JSON.stringify(join(ROOT, 'dist/gateway/index.js'))});
    const loaded = Object.keys(require.cache);
    const telemetry = require.cache[require.resolve(${JSON.stringify(TELEMETRY_MODULE)})];
    process.stdout.write(JSON.stringify({
      heavy: loaded.filter((p) => /node_modules\\/(@opentelemetry\\/(?!api\\/)|make-fetch-happen\\/|cacache\\/)|@apollo\\/gateway\\/dist\\/index\\.js$/.test(p)),
      executor: loaded.some((p) => p.endsWith('@apollo/gateway/dist/executeQueryPlan.js')),
      replaced: telemetry !== undefined && typeof telemetry.exports.tracer.startActiveSpan === 'function' && !('then' in telemetry.exports),
      real: loaded.some((p) => p.endsWith('@apollo/gateway/dist/utilities/opentelemetry.js') && require.cache[p].exports.createDataCollectionExporter.toString().includes('OTLPMetricExporter')),
    }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, unknown>;
  expect(out).toEqual({ heavy: [], executor: true, replaced: true, real: false });
});

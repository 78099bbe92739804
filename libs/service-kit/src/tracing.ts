/**
 * OpenTelemetry tracing, off by default. `initTracing` registers a tracer provider (W3C trace
 * context propagation, AsyncLocalStorage context) exporting over OTLP/HTTP; every server made by
 * createServer then opens one SERVER span per request, continuing the caller's `traceparent`.
 *
 * When no provider is registered the OpenTelemetry API is a no-op: no span objects, no header
 * parsing (the request hooks check one boolean), so tracing off costs nothing measurable.
 */
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | undefined;

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP base address (e.g. http://collector:4318); `/v1/traces` is appended. */
  endpoint?: string;
  /** Export to this exporter instead, span by span (tests use an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

/** True once a tracer provider is registered in this process. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/**
 * Registers the process-wide tracer provider (once: later calls return false and change nothing,
 * so the one-process start, which builds every service in one process, traces as the first one).
 */
export function initTracing(options: TracingOptions): boolean {
  if (provider) return false;
  const exporter =
    options.exporter ??
    new OTLPTraceExporter(
      options.endpoint ? { url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` } : {},
    );
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return true;
}

/**
 * Turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is
 * set; the service name is OTEL_SERVICE_NAME or the given one. Called by createServer.
 */
export function initTracingFromEnv(
  serviceName: string,
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (provider) return false;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return initTracing({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    // The traces-specific variable is read by the exporter itself.
    ...(endpoint && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? { endpoint } : {}),
  });
}

/** Exports what is buffered (called when a server closes). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

export const tracer = trace.getTracer('fleetgraph');

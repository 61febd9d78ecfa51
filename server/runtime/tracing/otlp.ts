/**
 * The OpenTelemetry tracer of an engine whose spans go to an OTLP/HTTP receiver (JSON), batched.
 * Span and trace ids are not drawn: each span is started with the ids its task has (trace-ids.ts),
 * handed to the id generator just before (`withIds`), so parents need not be open spans.
 *
 * State: the ids the next started span takes (set and used within one synchronous call).
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type IdGenerator } from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  /** The OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  endpoint: string;
  /** `service.name` of the spans (default acts-studio). */
  serviceName?: string;
}

export interface Tracing {
  readonly tracer: Tracer;
  /** Runs `start` with the span (and, for a root span, trace) id its span must take. */
  withIds<T>(traceId: string, spanId: string, start: () => T): T;
  /** Sends what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

class GivenIds implements IdGenerator {
  traceId = '';
  spanId = '';
  generateTraceId(): string {
    return this.traceId;
  }
  generateSpanId(): string {
    return this.spanId;
  }
}

export function startTracing(options: TracingOptions): Tracing {
  const ids = new GivenIds();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'acts-studio' }),
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.endpoint }))],
  });
  return {
    tracer: provider.getTracer('acts-studio'),
    withIds(traceId, spanId, start) {
      ids.traceId = traceId;
      ids.spanId = spanId;
      return start();
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

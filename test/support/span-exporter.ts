import type { Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { beforeEach } from "vitest";

/** A tracer whose spans are kept in memory for the file (or describe block) that calls it, emptied before each test. */
export function useSpanExporter(): { exporter: InMemorySpanExporter; tracer: Tracer } {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
  beforeEach(() => exporter.reset());
  return { exporter, tracer };
}

import { fileURLToPath } from "node:url";
import type { BenchConfig, Provider } from "./config.js";
import { runNode } from "./spawn-node.js";
import { mean, median } from "./stats.js";

export type Side = "raw" | "keelson";
export type Kind = "call" | "stream";
/** The short question natively or forced, or a growth case (a 500-message history, 100 tools; calls only). */
export type Path = "native" | "forced" | "history-500" | "tools-100";
export type ImportMode = "import" | "construct";

/** One worker process's figures for one side of one case. */
export interface CallSample {
  p50Ms: number;
  meanMs: number;
  cpuPerCallUs: number;
  peakRssBytes: number;
}

export interface ImportSample {
  ms: number;
  peakRssBytes: number;
}

const worker = fileURLToPath(new URL("./worker.mjs", import.meta.url));
const importWorker = fileURLToPath(new URL("./import-worker.mjs", import.meta.url));
const overheadWorker = fileURLToPath(new URL("./overhead-worker.mjs", import.meta.url));
const segmentsWorker = fileURLToPath(new URL("./segments-worker.mjs", import.meta.url));
const runToolsWorker = fileURLToPath(new URL("./run-tools-worker.mjs", import.meta.url));

/** keelson's own time per call and per stream on a canned adapter (no network, no SDK), in a tight loop. */
export interface OverheadSample {
  callUs: number;
  streamUs: number;
  /** The same through a router (createRouter, least-busy over two canned members). */
  routerCallUs: number;
  routerStreamUs: number;
}

/**
 * The agent loop's own cost on a canned adapter (CPU µs, medians of a worker's rounds): a 5-step
 * `runTools` run, the same loop written by hand, and what runTools adds per step beyond the model calls.
 */
export interface RunToolsSample {
  runToolsUs: number;
  handLoopUs: number;
  perStepUs: number;
}

/**
 * One side's native call on the loopback, split where both sides pass (medians of a worker's calls,
 * µs): before the SDK's method is entered; in the SDK until its fetch; on the wire until the
 * response's headers; in the SDK until its promise settles; after that until the call returns.
 */
export interface SegmentsSample {
  beforeSDK: number;
  sdkToRequest: number;
  wire: number;
  sdkFromResponse: number;
  afterSDK: number;
  total: number;
}

/** Lines workers wrote to stderr (warnings), each kept once. */
export const workerWarnings = new Set<string>();

function keepWarnings(stderr: string): void {
  for (const line of stderr.split("\n"))
    if (line.trim() !== "" && !line.includes("--trace-warnings"))
      workerWarnings.add(line.replace(/\(node:\d+\)/, "(node)"));
}

/** What a worker timing calls against the fake server is told: where it is, and how many calls to make. */
function callWorkerEnv(port: number, config: BenchConfig): Record<string, string> {
  return {
    BENCH_PORT: String(port),
    BENCH_ITERATIONS: String(config.iterations),
    BENCH_WARMUP: String(config.warmup),
    BENCH_LISTENERS: config.listeners,
  };
}

export async function measureCalls(
  side: Side,
  provider: Provider,
  kind: Kind,
  path: Path,
  port: number,
  config: BenchConfig,
): Promise<CallSample> {
  const { result, stderr } = await runNode(worker, [side, provider, kind, path], callWorkerEnv(port, config));
  keepWarnings(stderr);
  const { times, cpuPerCallUs, peakRssBytes } = result as {
    times: number[];
    cpuPerCallUs: number;
    peakRssBytes: number;
  };
  return { p50Ms: median(times), meanMs: mean(times), cpuPerCallUs, peakRssBytes };
}

export async function measureImport(side: Side, provider: Provider, mode: ImportMode): Promise<ImportSample> {
  const { result, stderr } = await runNode(importWorker, [side, provider, mode], {});
  keepWarnings(stderr);
  return result as ImportSample;
}

export async function measureOverhead(config: BenchConfig): Promise<OverheadSample> {
  const { result, stderr } = await runNode(overheadWorker, [], { BENCH_LISTENERS: config.listeners });
  keepWarnings(stderr);
  return result as OverheadSample;
}

export async function measureRunTools(config: BenchConfig): Promise<RunToolsSample> {
  const { result, stderr } = await runNode(runToolsWorker, [], { BENCH_LISTENERS: config.listeners });
  keepWarnings(stderr);
  return result as RunToolsSample;
}

export async function measureSegments(
  side: Side,
  provider: Provider,
  port: number,
  config: BenchConfig,
): Promise<SegmentsSample> {
  const { result, stderr } = await runNode(segmentsWorker, [side, provider], callWorkerEnv(port, config));
  keepWarnings(stderr);
  return result as SegmentsSample;
}

import type { Path } from "./measure.js";
/** The benchmark's knobs, from the environment, with defaults that finish in a few minutes on 2 cores. */
export interface BenchConfig {
  /** Rounds of every raw/keelson pair, the order flipped each round. @default 5 */
  rounds: number;
  /** Timed requests per worker process. @default 200 */
  iterations: number;
  /** Untimed requests first, per worker process. @default 50 */
  warmup: number;
  /** Fresh processes per cold-import case and side. @default 10 */
  importRounds: number;
  /** keelson's event listeners: "none", "lifecycle" (start, success, error, finish) or "all" (newToken too). @default "lifecycle" */
  listeners: "none" | "lifecycle" | "all";
  /** @default ["openai", "ollama", "anthropic"] */
  providers: Provider[];
  /** A regular expression: only the cases whose name ("ollama call native", "openai import construct", …) matches. @default every case */
  cases: string;
}

export type Provider = "openai" | "ollama" | "anthropic";

const knownProviders: readonly Provider[] = ["openai", "ollama", "anthropic"];

export function readConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const listeners = env.BENCH_LISTENERS ?? "lifecycle";
  if (listeners !== "none" && listeners !== "lifecycle" && listeners !== "all") {
    throw new TypeError(`BENCH_LISTENERS must be none, lifecycle or all, got ${JSON.stringify(listeners)}.`);
  }
  const providers = (env.BENCH_PROVIDERS ?? knownProviders.join(",")).split(",").map((name) => name.trim());
  for (const provider of providers) {
    if (!(knownProviders as readonly string[]).includes(provider))
      throw new TypeError(`BENCH_PROVIDERS: unknown provider ${JSON.stringify(provider)}.`);
  }
  return {
    rounds: positiveInteger(env, "BENCH_ROUNDS", 5),
    iterations: positiveInteger(env, "BENCH_ITERATIONS", 200),
    warmup: positiveInteger(env, "BENCH_WARMUP", 50, 0),
    importRounds: positiveInteger(env, "BENCH_IMPORT_ROUNDS", 10),
    listeners,
    providers: providers as Provider[],
    cases: env.BENCH_CASES ?? "",
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum || value > 100_000) {
    throw new TypeError(`${name} must be an integer from ${minimum} to 100000, got ${JSON.stringify(raw)}.`);
  }
  return value;
}

/** A call case: one provider, a plain call or a stream, on the native or the forced (response-format) path. */
export interface CallCaseName {
  provider: Provider;
  kind: "call" | "stream";
  path: Path;
  /** "ollama stream native", what BENCH_CASES matches. */
  name: string;
}

/** The call cases the configuration selects, in the order they run. */
export function selectedCallCases(config: BenchConfig): CallCaseName[] {
  const pattern = new RegExp(config.cases);
  const cases: CallCaseName[] = [];
  for (const provider of config.providers) {
    for (const kind of ["call", "stream"] as const) {
      // The growth cases run where both sides take the workload (bench/fixtures.mjs): openai and ollama.
      const growth = kind === "call" && provider !== "anthropic";
      const paths: Path[] = growth ? ["native", "forced", "history-500", "tools-100"] : ["native", "forced"];
      for (const path of paths) {
        const name = `${provider} ${kind} ${path}`;
        if (pattern.test(name)) cases.push({ provider, kind, path, name });
      }
    }
  }
  return cases;
}

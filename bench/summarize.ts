import type { CallSample, ImportSample, Kind, Path, Side, ImportMode } from "./measure.js";
import type { Provider } from "./config.js";
import { median } from "./stats.js";

export interface CallCase {
  provider: Provider;
  kind: Kind;
  path: Path;
  /** Medians over the rounds of each worker's figures. */
  raw: CallSample;
  keelson: CallSample;
  /** keelson ÷ raw, from those medians. */
  ratio: CallSample;
  /** The lowest and highest keelson ÷ raw of a single round (a round's two workers ran back to back). */
  ratioRange: Range<CallSample>;
}

/** Per figure, [lowest, highest]. */
export type Range<S> = { [K in keyof S]: [number, number] };

export interface ImportCase {
  provider: Provider;
  mode: ImportMode;
  raw: ImportSample;
  keelson: ImportSample;
  ratio: ImportSample;
  ratioRange: Range<ImportSample>;
}

export interface Target {
  name: string;
  measured: number;
  limit: number;
  met: boolean;
}

export function medianSample<T extends object>(samples: readonly T[]): T {
  const first = samples[0];
  if (!first) throw new Error("no samples");
  const result: Record<string, number> = {};
  for (const key of Object.keys(first)) result[key] = median(samples.map((sample) => (sample as Record<string, number>)[key]!));
  return result as T;
}

export function ratioOf<T extends object>(keelson: T, raw: T): T {
  const result: Record<string, number> = {};
  for (const key of Object.keys(raw)) result[key] = (keelson as Record<string, number>)[key]! / (raw as Record<string, number>)[key]!;
  return result as T;
}

export function collect<S extends object>(samples: Record<Side, S[]>): { raw: S; keelson: S; ratio: S; ratioRange: Range<S> } {
  const raw = medianSample(samples.raw);
  const keelson = medianSample(samples.keelson);
  const perRound = samples.raw.map((rawSample, round) => ratioOf(samples.keelson[round]!, rawSample) as Record<string, number>);
  const ratioRange: Record<string, [number, number]> = {};
  for (const key of Object.keys(raw)) {
    const values = perRound.map((ratios) => ratios[key]!);
    ratioRange[key] = [Math.min(...values), Math.max(...values)];
  }
  return { raw, keelson, ratio: ratioOf(keelson, raw), ratioRange: ratioRange as Range<S> };
}

/** The targets, each checked per provider (informational: the benchmark never fails on them). */
export function checkTargets(calls: CallCase[], imports: ImportCase[], providers: readonly Provider[]): Target[] {
  const targets: Target[] = [];
  const add = (name: string, measured: number, limit: number) => targets.push({ name, measured, limit, met: measured <= limit });
  const find = (provider: Provider, kind: Kind, path: Path) => calls.find((c) => c.provider === provider && c.kind === kind && c.path === path);
  for (const provider of providers) {
    const call = find(provider, "call", "native");
    const stream = find(provider, "stream", "native");
    const forced = find(provider, "call", "forced");
    const construct = imports.find((c) => c.provider === provider && c.mode === "construct");
    if (call) add(`${provider}: per call (p50), keelson ÷ raw`, call.ratio.p50Ms, 1.05);
    if (stream) add(`${provider}: per stream (p50), keelson ÷ raw`, stream.ratio.p50Ms, 1.25);
    if (call && forced) add(`${provider}: forced call ÷ native call (keelson, p50)`, forced.keelson.p50Ms / call.keelson.p50Ms, 1.05);
    if (construct) add(`${provider}: import + construct, keelson ÷ raw`, construct.ratio.ms, 1.15);
    const rss = calls.filter((c) => c.provider === provider).map((c) => c.ratio.peakRssBytes);
    if (rss.length > 0) add(`${provider}: peak RSS, worst case, keelson ÷ raw`, Math.max(...rss), 1.1);
  }
  return targets;
}

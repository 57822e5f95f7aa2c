import type { CallSample, ImportSample, Kind, Path, Side, ImportMode } from "./measure.js";
import type { Provider } from "./config.js";
import { median, ratioInterval } from "./stats.js";

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
  /** Where `ratio` may lie given the rounds' noise: a 95% bootstrap interval over the rounds (5 rounds or more). */
  ratioInterval: Partial<Range<CallSample>>;
  /** keelson's p50 of each round, in round order: the forced and native cases of one round ran side by side. */
  keelsonRoundP50s?: number[];
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
  ratioInterval: Partial<Range<ImportSample>>;
}

export interface Target {
  name: string;
  measured: number;
  limit: number;
  met: boolean;
  /** The measured ratio's 95% interval, where the rounds give one. */
  interval?: [number, number];
  /** The interval holds the limit: met or missed, the rounds cannot tell which (more rounds can). */
  withinNoise: boolean;
}

export function medianSample<T extends object>(samples: readonly T[]): T {
  const first = samples[0];
  if (!first) throw new Error("no samples");
  const result: Record<string, number> = {};
  for (const key of Object.keys(first))
    result[key] = median(samples.map((sample) => (sample as Record<string, number>)[key]!));
  return result as T;
}

export function ratioOf<T extends object>(keelson: T, raw: T): T {
  const result: Record<string, number> = {};
  for (const key of Object.keys(raw))
    result[key] = (keelson as Record<string, number>)[key]! / (raw as Record<string, number>)[key]!;
  return result as T;
}

export function collect<S extends object>(
  samples: Record<Side, S[]>,
): { raw: S; keelson: S; ratio: S; ratioRange: Range<S>; ratioInterval: Partial<Range<S>> } {
  const raw = medianSample(samples.raw);
  const keelson = medianSample(samples.keelson);
  const perRound = samples.raw.map(
    (rawSample, round) => ratioOf(samples.keelson[round]!, rawSample) as Record<string, number>,
  );
  const ratioRange: Record<string, [number, number]> = {};
  const intervals: Record<string, [number, number]> = {};
  const figure = (side: Side, key: string) => samples[side].map((sample) => (sample as Record<string, number>)[key]!);
  for (const key of Object.keys(raw)) {
    const values = perRound.map((ratios) => ratios[key]!);
    ratioRange[key] = [Math.min(...values), Math.max(...values)];
    const interval = ratioInterval(figure("keelson", key), figure("raw", key));
    if (interval) intervals[key] = interval;
  }
  return {
    raw,
    keelson,
    ratio: ratioOf(keelson, raw),
    ratioRange: ratioRange as Range<S>,
    ratioInterval: intervals as Partial<Range<S>>,
  };
}

/** The targets, each checked per provider (informational: the benchmark never fails on them). */
export function checkTargets(calls: CallCase[], imports: ImportCase[], providers: readonly Provider[]): Target[] {
  const targets: Target[] = [];
  const add = (name: string, measured: number, limit: number, interval?: [number, number]) =>
    targets.push({
      name,
      measured,
      limit,
      met: measured <= limit,
      ...(interval ? { interval } : {}),
      withinNoise: interval !== undefined && interval[0] <= limit && limit <= interval[1],
    });
  const find = (provider: Provider, kind: Kind, path: Path) =>
    calls.find((c) => c.provider === provider && c.kind === kind && c.path === path);
  for (const provider of providers) {
    const call = find(provider, "call", "native");
    const stream = find(provider, "stream", "native");
    const forced = find(provider, "call", "forced");
    const construct = imports.find((c) => c.provider === provider && c.mode === "construct");
    if (call) add(`${provider}: per call (p50), keelson ÷ raw`, call.ratio.p50Ms, 1.05, call.ratioInterval.p50Ms);
    for (const growth of ["history-500", "tools-100"] as const) {
      const grown = find(provider, "call", growth);
      if (grown)
        add(
          `${provider}: per call, ${growth} (p50), keelson ÷ raw`,
          grown.ratio.p50Ms,
          1.05,
          grown.ratioInterval.p50Ms,
        );
    }
    if (stream)
      add(`${provider}: per stream (p50), keelson ÷ raw`, stream.ratio.p50Ms, 1.15, stream.ratioInterval.p50Ms);
    if (call && forced) {
      const interval =
        forced.keelsonRoundP50s && call.keelsonRoundP50s
          ? ratioInterval(forced.keelsonRoundP50s, call.keelsonRoundP50s)
          : undefined;
      add(
        `${provider}: forced call ÷ native call (keelson, p50)`,
        forced.keelson.p50Ms / call.keelson.p50Ms,
        1.05,
        interval,
      );
    }
    if (construct)
      add(`${provider}: import + construct, keelson ÷ raw`, construct.ratio.ms, 1.1, construct.ratioInterval.ms);
    const rss = calls.filter((c) => c.provider === provider).map((c) => c.ratio.peakRssBytes);
    if (rss.length > 0) add(`${provider}: peak RSS, worst case, keelson ÷ raw`, Math.max(...rss), 1.1);
  }
  return targets;
}

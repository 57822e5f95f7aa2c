/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * How far a ratio of medians (keelson ÷ raw) may move with the rounds it came from: the 2.5th and
 * 97.5th percentiles of the ratio over `resamples` draws of the rounds with replacement, a round's
 * two figures drawn together (they ran back to back). Seeded, so the same figures always give the
 * same interval. Undefined for fewer than 5 rounds, where a resample says nothing.
 */
export function ratioInterval(
  keelson: readonly number[],
  raw: readonly number[],
  resamples = 2000,
): [number, number] | undefined {
  const rounds = raw.length;
  if (rounds < 5 || keelson.length !== rounds) return undefined;
  const random = seededRandom(rounds);
  const ratios: number[] = [];
  const drawnKeelson = new Array<number>(rounds);
  const drawnRaw = new Array<number>(rounds);
  for (let draw = 0; draw < resamples; draw++) {
    for (let index = 0; index < rounds; index++) {
      const round = Math.floor(random() * rounds);
      drawnKeelson[index] = keelson[round]!;
      drawnRaw[index] = raw[round]!;
    }
    ratios.push(median(drawnKeelson) / median(drawnRaw));
  }
  ratios.sort((a, b) => a - b);
  return [ratios[Math.floor(resamples * 0.025)]!, ratios[Math.ceil(resamples * 0.975) - 1]!];
}

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

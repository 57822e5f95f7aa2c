const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
/** 36 * 36 = 1296 two-character strings; 50 * 1296 = 64800 of the 65536 values a 16-bit draw takes. */
const pairCount = alphabet.length * alphabet.length;
const usableDraw = Math.floor(65536 / pairCount) * pairCount;

// Random 16-bit values drawn 256 at a time: one call into the CSPRNG per ~64 ids. Each id is four
// of them, each picking one of the 1296 character pairs: four reads and joins instead of
// eight characters looked up one by one and made into a string (about half the instructions of
// a call's id, in code V8 has not optimised yet). Measured: with one CSPRNG call and eight lookups per
// id instead, an Ollama call (npm run bench:instructions, replayed) cost 570.6k instructions against
// 542.8k, 5.1 %.
const pool = new Uint16Array(256);
let next = pool.length;
let pairs: string[] | undefined;

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  const table = (pairs ??= allPairs());
  for (;;) {
    if (next + 4 > pool.length) {
      // The global Web Crypto (no node:crypto import: importing keelson stays cheap).
      globalThis.crypto.getRandomValues(pool);
      next = 0;
    }
    const r0 = pool[next]!,
      r1 = pool[next + 1]!,
      r2 = pool[next + 2]!,
      r3 = pool[next + 3]!;
    next += 4;
    // A value at or above 64800 would favour the first pairs, so such a draw is made again whole:
    // each character stays uniform.
    if (r0 >= usableDraw || r1 >= usableDraw || r2 >= usableDraw || r3 >= usableDraw) continue;
    return "call_" + table[r0 % pairCount]! + table[r1 % pairCount]! + table[r2 % pairCount]! + table[r3 % pairCount]!;
  }
}

function allPairs(): string[] {
  const table: string[] = [];
  for (const first of alphabet) for (const second of alphabet) table.push(first + second);
  return table;
}

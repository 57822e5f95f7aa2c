const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
const codes = Array.from(alphabet, (char) => char.charCodeAt(0));

// Random bytes drawn 512 at a time: one call into the CSPRNG per ~60 ids instead of one per id
// (each call cost about as much as the rest of a call's output handling).
const pool = new Uint8Array(512);
let next = pool.length;

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  // Eight bytes make the eight characters at once (one string built, not eight concatenations). A
  // byte at or above 252 = 7 * 36 would favour the first letters, so such a draw is made again:
  // each character stays uniform.
  for (;;) {
    if (next + 8 > pool.length) {
      // The global Web Crypto (no node:crypto import: importing keelson stays cheap).
      globalThis.crypto.getRandomValues(pool);
      next = 0;
    }
    const at = next;
    next += 8;
    const b0 = pool[at]!, b1 = pool[at + 1]!, b2 = pool[at + 2]!, b3 = pool[at + 3]!;
    const b4 = pool[at + 4]!, b5 = pool[at + 5]!, b6 = pool[at + 6]!, b7 = pool[at + 7]!;
    if (Math.max(b0, b1, b2, b3, b4, b5, b6, b7) >= 252) continue;
    return `call_${String.fromCharCode(
      codes[b0 % 36]!, codes[b1 % 36]!, codes[b2 % 36]!, codes[b3 % 36]!,
      codes[b4 % 36]!, codes[b5 % 36]!, codes[b6 % 36]!, codes[b7 % 36]!,
    )}`;
  }
}

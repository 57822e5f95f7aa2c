const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

// Random bytes drawn 512 at a time: one call into the CSPRNG per ~60 ids instead of one per id
// (each call cost about as much as the rest of a call's output handling).
const pool = new Uint8Array(512);
let next = pool.length;

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  let id = "call_";
  let length = 0;
  // One loop without calls (an id is made on every call to a provider that sends none): a byte at
  // or above 252 = 7 * 36 is skipped, so each character is uniform.
  while (length < 8) {
    if (next === pool.length) {
      // The global Web Crypto (no node:crypto import: importing keelson stays cheap).
      globalThis.crypto.getRandomValues(pool);
      next = 0;
    }
    const byte = pool[next++]!;
    if (byte < 252) {
      id += alphabet[byte % 36];
      length++;
    }
  }
  return id;
}

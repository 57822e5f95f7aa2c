import { randomBytes } from "node:crypto";

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  const bytes = randomBytes(8);
  let id = "call_";
  // 252 = 7 * 36: bytes at or above it are re-drawn so each character is uniform.
  for (let i = 0; i < 8; i++) {
    let byte = bytes[i]!;
    while (byte >= 252) byte = randomBytes(1)[0]!;
    id += alphabet[byte % 36];
  }
  return id;
}

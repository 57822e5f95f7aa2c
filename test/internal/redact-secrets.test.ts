import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/internal/redact-secrets.js";

const secret = "sk-REDACT-0123456789abcdef";

/** Every string reachable from `value` (own properties, accessors read, Headers, Maps, Sets, causes). */
function strings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") out.push(next);
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    if (next instanceof Headers || next instanceof Map || next instanceof Set)
      for (const entry of next as Iterable<unknown>) pending.push(entry);
    for (const key of Reflect.ownKeys(next)) {
      try {
        pending.push((next as Record<PropertyKey, unknown>)[key]);
      } catch {
        // A throwing getter holds nothing to read.
      }
    }
    if (next instanceof Error) pending.push(next.message, next.stack, next.cause);
  }
  return out;
}

/** A snapshot to prove the original is unchanged: every reachable string, in order. */
const snapshot = (value: unknown): string => JSON.stringify(strings(value));

/** JSON-like data with the secret somewhere in it, frozen at random depths. */
const tree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(`key ${secret} echoed`, secret, "plain", 1, null, true),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "headers", "message", "error"), tie("node"), { maxKeys: 4 }),
  ),
})).node;

const frozenDeep = (value: unknown): unknown => {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) frozenDeep(child);
    Object.freeze(value);
  }
  return value;
};

describe("redactSecrets", () => {
  it("should return a copy without the secret and leave any frozen JSON-like value it was given unchanged", () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (value, freeze) => {
        const given = freeze ? frozenDeep(structuredClone(value)) : value;
        const before = snapshot(given);
        const clean = redactSecrets(given, [secret]);
        expect(snapshot(given)).toBe(before);
        for (const text of strings(clean)) expect(text).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });

  it("should copy fetch Headers guarded as immutable rather than set them", async () => {
    const response = new Response("{}", { status: 429, headers: { "x-echo": `Bearer ${secret}`, "retry-after": "1" } });
    const error = Object.freeze(Object.assign(new Error(`429 ${secret}`), { headers: response.headers, status: 429 }));
    const clean = redactSecrets(error, [secret]);
    expect(response.headers.get("x-echo")).toBe(`Bearer ${secret}`);
    expect(clean).not.toBe(error);
    expect(clean).toBeInstanceOf(Error);
    expect(clean.headers).toBeInstanceOf(Headers);
    expect(clean.headers.get("retry-after")).toBe("1");
    expect(clean.headers.get("x-echo")).toBe("Bearer [redacted]");
    expect(clean.message).toBe("429 [redacted]");
    expect(clean.status).toBe(429);
    await response.body?.cancel();
  });

  it("should keep an error's class, and copy getters, throwing getters, Maps, Sets and cycles without throwing", () => {
    class SDKError extends Error {}
    const body: Record<string, unknown> = { note: `echo ${secret}` };
    body.self = body;
    const error = new SDKError("failed");
    Object.defineProperty(error, "echo", { get: () => `key=${secret}`, enumerable: true });
    Object.defineProperty(error, "boom", {
      get: () => {
        throw new Error("getter threw");
      },
      enumerable: true,
    });
    Object.assign(error, {
      body,
      map: new Map([["k", secret]]),
      set: new Set([secret]),
      cause: Object.freeze({ secret }),
    });
    const before = snapshot(error);
    const clean = redactSecrets(error, [secret]) as SDKError & Record<string, any>;
    expect(snapshot(error)).toBe(before);
    expect(clean).toBeInstanceOf(SDKError);
    expect(clean.constructor.name).toBe("SDKError");
    expect(clean.body.self).toBe(clean.body);
    expect(strings(clean).some((text) => text.includes(secret))).toBe(false);
    expect(clean.echo).toBe("key=[redacted]");
  });

  it("should never throw on a Proxy whose traps throw, and return a value without secrets unchanged", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("trap");
        },
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    expect(() => redactSecrets({ hostile, note: secret }, [secret])).not.toThrow();
    const plain = { a: [1, "two"] };
    expect(redactSecrets(plain, [secret])).toBe(plain);
  });

  it("should walk a body nested thousands deep", () => {
    let deep: unknown = { leaked: secret };
    for (let level = 0; level < 5_000; level++) deep = { level, deep };
    const clean = redactSecrets(deep, [secret]);
    expect(strings(clean).some((text) => text.includes(secret))).toBe(false);
    expect(strings(deep).some((text) => text.includes(secret))).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { deferredChunks } from "../../../src/core/stream/deferred-chunks.js";

async function* numbers(): AsyncGenerator<number, string> {
  yield 1;
  yield 2;
  return "done";
}

describe("deferredChunks", () => {
  it("should hand on every read, made before and after the iterator exists", async () => {
    let make!: (iterator: AsyncIterator<number, string>) => void;
    const chunks = deferredChunks(new Promise<AsyncIterator<number, string>>((resolve) => (make = resolve)));
    const first = chunks.next();
    const second = chunks.next();
    make(numbers());
    expect(await first).toEqual({ done: false, value: 1 });
    expect(await second).toEqual({ done: false, value: 2 });
    expect(await chunks.next()).toEqual({ done: true, value: "done" });
  });

  it("should fail the first read when the iterator could not be made, and close quietly", async () => {
    const chunks = deferredChunks<number, string>(Promise.reject(new TypeError("bad input")));
    await expect(chunks.next()).rejects.toThrow("bad input");
    await expect(chunks.return!()).rejects.toThrow("bad input");
  });

  it("should close the real iterator when closed early", async () => {
    let closed = false;
    async function* watched(): AsyncGenerator<number, string> {
      try {
        yield 1;
        yield 2;
        return "done";
      } finally {
        closed = true;
      }
    }
    const chunks = deferredChunks(Promise.resolve(watched()));
    expect(await chunks.next()).toEqual({ done: false, value: 1 });
    expect(await chunks.return!()).toEqual({ done: true, value: undefined });
    expect(closed).toBe(true);
  });
});

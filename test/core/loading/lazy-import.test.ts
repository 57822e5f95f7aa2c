import { describe, expect, it, vi } from "vitest";
import { lazyImport } from "../../../src/core/loading/lazy-import.js";

describe("lazyImport", () => {
  it("should load the module once and run every use on it", async () => {
    const load = vi.fn(async () => ({ double: (value: number) => value * 2 }));
    const withModule = lazyImport(load);
    const results = await Promise.all([1, 2, 3].map((value) => withModule(async (module) => module.double(value))));
    expect(results).toEqual([2, 4, 6]);
    expect(await withModule(async (module) => module.double(5))).toBe(10);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("should try a failed load again on the next use", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("disk hiccup")).mockResolvedValue({ name: "calls" });
    const withModule = lazyImport<{ name: string }>(load);
    await expect(withModule(async (module) => module.name)).rejects.toThrow("disk hiccup");
    await expect(withModule(async (module) => module.name)).resolves.toBe("calls");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("should turn a use that throws at once into a rejection, loaded or not", async () => {
    const withModule = lazyImport(async () => ({}));
    const use = () => {
      throw new TypeError("bad input");
    };
    await expect(withModule(use)).rejects.toThrow("bad input");
    // Loaded now: the use runs synchronously, and still only rejects.
    let caught: unknown;
    const settled = (() => {
      try {
        return withModule(use);
      } catch (error) {
        caught = error;
        return undefined;
      }
    })();
    expect(caught).toBeUndefined();
    await expect(settled).rejects.toThrow("bad input");
  });
});

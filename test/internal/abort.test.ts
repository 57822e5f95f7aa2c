import { describe, expect, it } from "vitest";
import { eitherSignal } from "../../src/internal/abort.js";

describe("eitherSignal", () => {
  it.each(["first", "second"] as const)("should abort with the %s signal's reason when that one aborts", (which) => {
    const first = new AbortController();
    const second = new AbortController();
    const either = eitherSignal(first.signal, second.signal);
    expect(either.aborted).toBe(false);
    const reason = new Error(`${which} gave up`);
    (which === "first" ? first : second).abort(reason);
    expect(either.aborted).toBe(true);
    expect(either.reason).toBe(reason);
  });

  it("should be aborted at once when one signal already is", () => {
    const done = AbortSignal.abort(new Error("too late"));
    expect(eitherSignal(new AbortController().signal, done)).toBe(done);
    expect(eitherSignal(done, new AbortController().signal)).toBe(done);
  });
});

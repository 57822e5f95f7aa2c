import { describe, expect, it } from "vitest";
import { mapOllamaFinishReason } from "../../../src/adapters/ollama/map-ollama-finish-reason.js";

describe("mapOllamaFinishReason", () => {
  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["load", "other"],
    ["unload", "other"],
    ["something-new", "other"],
  ] as const)("should map done_reason %s to %s", (doneReason, expected) => {
    expect(mapOllamaFinishReason(doneReason)).toBe(expected);
  });

  it("should leave an absent done_reason to the base class", () => {
    expect(mapOllamaFinishReason(undefined)).toBeUndefined();
    expect(mapOllamaFinishReason("")).toBeUndefined();
  });
});

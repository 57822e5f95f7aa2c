import { describe, expect, it } from "vitest";
import {
  ChatModelError,
  EmptyResponseError,
  MissingDependencyError,
  ProviderError,
  StructuredOutputError,
  ToolCallError,
  UnsupportedFeatureError,
} from "../../../src/index.js";

describe("ChatModelError", () => {
  it("should recognise its subclasses with isInstance, across module copies", () => {
    const error = new ProviderError("boom", { statusCode: 429 });
    expect(ChatModelError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(ToolCallError.isInstance(error)).toBe(false);
    // A copy from another module instance carries the same Symbol.for markers and nothing else.
    const foreign = Object.create(null) as Record<symbol, boolean>;
    foreign[Symbol.for("keelson.error")] = true;
    foreign[Symbol.for("keelson.error.ToolCallError")] = true;
    expect(ToolCallError.isInstance(foreign)).toBe(true);
    expect(ProviderError.isInstance(foreign)).toBe(false);
    expect(ChatModelError.isInstance(new Error("plain"))).toBe(false);
    expect(ChatModelError.isInstance(null)).toBe(false);
  });

  it("should derive isRetryable and reason from the status code", () => {
    const cases: [number | undefined, string, boolean][] = [
      [429, "rate-limit", true],
      [408, "timeout", true],
      [409, "invalid-request", true],
      [500, "server", true],
      [503, "server", true],
      [400, "invalid-request", false],
      [401, "authentication", false],
      [404, "not-found", false],
      [undefined, "network", true],
    ];
    for (const [statusCode, reason, retryable] of cases) {
      const error = new ProviderError("x", { statusCode });
      expect([statusCode, error.reason, error.isRetryable]).toEqual([statusCode, reason, retryable]);
    }
    expect(new ProviderError("quota", { statusCode: 429, isRetryable: false }).isRetryable).toBe(false);
  });

  it("should keep the SDK error as cause and name the missing package's install command", () => {
    const cause = new Error("sdk");
    expect(new ProviderError("x", { cause }).cause).toBe(cause);
    const missing = new MissingDependencyError({ packageName: "openai", purpose: "the OpenAI adapter" });
    expect(missing.message).toContain("npm install openai");
    for (const error of [
      new EmptyResponseError("e"),
      new StructuredOutputError("s", { text: "", issues: [] }),
      new UnsupportedFeatureError("u", { feature: "f" }),
      missing,
    ]) {
      expect(ChatModelError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(Error);
    }
  });
});

import { describe, expect, it } from "vitest";
import { mapOllamaError } from "../../../src/adapters/ollama/map-ollama-error.js";
import { ProviderError, UnsupportedFeatureError } from "../../../src/index.js";

const context = { modelId: "llama3.2", host: "http://gpu-box:11434" };
const fetchFailed = (cause: unknown) => Object.assign(new TypeError("fetch failed"), { cause });

describe("mapOllamaError", () => {
  it("should pass aborts and keelson's own errors through unchanged", () => {
    const abort = new DOMException("This operation was aborted", "AbortError");
    const unsupported = new UnsupportedFeatureError("no", { feature: "x" });
    expect(mapOllamaError(abort, context)).toBe(abort);
    expect(mapOllamaError(unsupported, context)).toBe(unsupported);
  });

  it("should find ECONNREFUSED inside an AggregateError cause", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:11434"), { code: "ECONNREFUSED" });
    const error = mapOllamaError(fetchFailed(new AggregateError([refused], "")), context);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ reason: "network", isRetryable: true, code: "ECONNREFUSED" });
    expect((error as Error).message).toContain("Ollama is not running at http://gpu-box:11434");
  });

  it("should report other network failures as unreachable, and timeouts as timeout", () => {
    const notFound = mapOllamaError(
      fetchFailed(Object.assign(new Error("getaddrinfo ENOTFOUND gpu-box"), { code: "ENOTFOUND" })),
      context,
    );
    expect(notFound).toMatchObject({ reason: "network", isRetryable: true, code: "ENOTFOUND" });
    expect((notFound as Error).message).toContain("Could not reach Ollama at http://gpu-box:11434 (ENOTFOUND)");
    const timeout = mapOllamaError(
      fetchFailed(Object.assign(new Error("Connect Timeout Error"), { code: "UND_ERR_CONNECT_TIMEOUT" })),
      context,
    );
    expect(timeout).toMatchObject({ reason: "timeout", isRetryable: true });
  });

  it("should read a 404 that is not about a model as a wrong host, not a missing model", () => {
    const responseError = Object.assign(new Error("404 page not found"), { name: "ResponseError", status_code: 404 });
    const error = mapOllamaError(responseError, context) as ProviderError;
    expect(error.statusCode).toBe(404);
    expect(error.code).toBeUndefined();
    expect(error.message).not.toContain("ollama pull");
  });

  it("should point a model without tool support at supportsToolCalling", () => {
    const responseError = Object.assign(new Error("registry.ollama.ai/library/gemma:2b does not support tools"), {
      name: "ResponseError",
      status_code: 400,
    });
    const error = mapOllamaError(responseError, context) as ProviderError;
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false, reason: "invalid-request" });
    expect(error.message).toContain("supportsToolCalling: false");
  });

  it("should leave programming errors alone", () => {
    const bug = new RangeError("oops");
    expect(mapOllamaError(bug, context)).toBe(bug);
  });
});

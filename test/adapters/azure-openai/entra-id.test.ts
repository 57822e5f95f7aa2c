import { describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { ProviderError } from "../../../src/index.js";
import { answerWithText } from "../../support/openai-wire.js";
import { azureModes, useAzureServer } from "./azure-harness.js";

const apiVersion = "2024-12-01-preview";
const user = [{ role: "user" as const, content: "What is the capital of France?" }];

/** A token provider that never answers, and a promise of its first call. */
function hangingProvider(): { provider: () => Promise<string>; called: Promise<void> } {
  let markCalled!: () => void;
  const called = new Promise<void>((resolve) => (markCalled = resolve));
  return { provider: () => (markCalled(), new Promise<string>(() => undefined)), called };
}

function model(azureADTokenProvider: () => Promise<string>): AzureOpenAIChatModel {
  return new AzureOpenAIChatModel("my-gpt4o", {
    endpoint: azure.server.url,
    apiVersion,
    azureADTokenProvider,
    retry: { maxRetries: 2, initialDelayMs: 1 },
  });
}

/** Settles with what the call ended with, or "still pending" after `ms`. */
function within(ms: number, call: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    call.catch((caught: unknown) => caught),
    new Promise((resolve) => setTimeout(() => resolve("still pending"), ms)),
  ]);
}

const azure = useAzureServer((server) => answerWithText(server, "Paris"));
const modes = azureModes;

describe("AzureOpenAIChatModel", () => {
  it("should use the Entra ID token provider when AZURE_OPENAI_API_KEY is also set", async () => {
    vi.stubEnv("AZURE_OPENAI_API_KEY", "azure-env-key-1");
    const subject = model(async () => "entra-token-1");
    await subject.create({ messages: user });
    expect(azure.server.requests[0]!.headers.authorization).toBe("Bearer entra-token-1");
    expect(azure.server.requests[0]!.headers["api-key"]).toBeUndefined();
  });

  describe.each(modes)("$mode", ({ run }) => {
    it("should end with an AbortError when aborted while the token provider is pending", async () => {
      const { provider, called } = hangingProvider();
      const controller = new AbortController();
      const call = within(2000, run(model(provider), { messages: user, signal: controller.signal }));
      await called;
      controller.abort();
      const error = await call;
      expect(error).toMatchObject({ name: "AbortError" });
      expect(azure.server.requests).toHaveLength(0);
    });

    it("should end with a TimeoutError when the call's timeout passes while the token provider is pending", async () => {
      const { provider, called } = hangingProvider();
      const call = within(2000, run(model(provider), { messages: user, timeout: 100 }));
      await called;
      const error = await call;
      expect(error).toMatchObject({ name: "TimeoutError" });
      expect(azure.server.requests).toHaveLength(0);
    });

    it("should raise a ProviderError for authentication, not retried, when the token provider fails", async () => {
      const failure = new Error("DefaultAzureCredential failed to retrieve a token from the included credentials.");
      const provider = vi.fn(() => Promise.reject(failure));
      const error = await run(model(provider), { messages: user }).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        providerId: "azure-openai",
        modelId: "my-gpt4o",
        reason: "authentication",
        isRetryable: false,
      });
      expect((error as Error).message).toContain("DefaultAzureCredential failed");
      expect((error as Error).message).not.toContain("'apiKey' function");
      expect((error as Error).cause).toBe(failure);
      expect(provider).toHaveBeenCalledTimes(1);
      expect(azure.server.requests).toHaveLength(0);
    });

    it("should raise a ProviderError for authentication when the token provider returns no token", async () => {
      const error = await run(
        model(async () => ""),
        { messages: user },
      ).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ providerId: "azure-openai", reason: "authentication", isRetryable: false });
      expect(azure.server.requests).toHaveLength(0);
    });
  });
});

import { describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { answerWithText } from "../../support/openai-wire.js";
import { azureModes, useAzureServer } from "./azure-harness.js";

const apiKey = "sk-test-SENTINEL-123";
const user = [{ role: "user" as const, content: "What is the capital of France?" }];

const azure = useAzureServer((server) => answerWithText(server, "Paris"));
const modes = azureModes;

describe("AzureOpenAIChatModel", () => {
  describe.each(modes)("$mode", ({ run }) => {
    it("should post to the v1 GA path, deployment as the model, when the endpoint ends in /openai/v1", async () => {
      vi.stubEnv("OPENAI_API_VERSION", "2024-10-21");
      const output = await run(
        new AzureOpenAIChatModel("my-gpt4o", { endpoint: `${azure.server.url}/openai/v1/`, apiKey }),
        { messages: user },
      );
      expect(output.text).toBe("Paris");
      const [request] = azure.server.requests;
      expect(request!.url).toBe("/openai/v1/chat/completions");
      expect(request!.json).toMatchObject({ model: "my-gpt4o" });
      expect(request!.headers.authorization).toBe(`Bearer ${apiKey}`);
    });

    it("should send an Entra ID bearer token on the v1 GA path", async () => {
      const subject = new AzureOpenAIChatModel("my-gpt4o", {
        endpoint: `${azure.server.url}/openai/v1`,
        azureADTokenProvider: async () => "entra-token-1",
      });
      await run(subject, { messages: user });
      expect(azure.server.requests[0]!.url).toBe("/openai/v1/chat/completions");
      expect(azure.server.requests[0]!.headers.authorization).toBe("Bearer entra-token-1");
    });
  });

  it("should send the apiVersion option on the v1 GA path only when it is given (e.g. preview)", async () => {
    await new AzureOpenAIChatModel("my-gpt4o", {
      endpoint: `${azure.server.url}/openai/v1`,
      apiKey,
      apiVersion: "preview",
    }).create({ messages: user });
    expect(azure.server.requests[0]!.url).toBe("/openai/v1/chat/completions?api-version=preview");
  });
});

describe("Entra ID on the v1 endpoint and the openai version", () => {
  it("should refuse an openai older than 5.18, whose client would send the token function as the key", async () => {
    const { requireKeyFunctions } = await import("../../../src/adapters/azure-openai/create-azure-client.js");
    expect(() => requireKeyFunctions("5.17.0")).toThrow(/needs openai 5\.18 or later, and 5\.17\.0 is installed/);
    for (const version of ["5.18.0", "5.23.2", "6.49.0", undefined])
      expect(() => requireKeyFunctions(version)).not.toThrow();
  });
});

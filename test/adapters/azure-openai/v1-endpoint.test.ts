import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import type { ChatModelInput, ChatModelOutput } from "../../../src/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { startLoopbackServer } from "../../support/loopback-server.js";
import { openAITextReply } from "../../support/openai-wire.js";

const apiKey = "sk-test-SENTINEL-123";
const user = [{ role: "user" as const, content: "What is the capital of France?" }];

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
  const reply = openAITextReply("Paris");
  server.handle((request, response) => {
    const step = (request.json as { stream?: boolean }).stream ? reply.stream! : reply.create!;
    response.writeHead(200, step.headers);
    response.end(step.body as string);
  });
});
afterEach(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

const modes = [
  { mode: "create", run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => subject.create(input) },
  { mode: "createStream", run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => subject.createStream(input).final() },
] as const satisfies readonly { mode: string; run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => Promise<ChatModelOutput> }[];

describe("AzureOpenAIChatModel", () => {
  describe.each(modes)("$mode", ({ run }) => {
    it("should post to the v1 GA path, deployment as the model, when the endpoint ends in /openai/v1", async () => {
      vi.stubEnv("OPENAI_API_VERSION", "2024-10-21");
      const output = await run(new AzureOpenAIChatModel("my-gpt4o", { endpoint: `${server.url}/openai/v1/`, apiKey }), { messages: user });
      expect(output.text).toBe("Paris");
      const [request] = server.requests;
      expect(request!.url).toBe("/openai/v1/chat/completions");
      expect(request!.json).toMatchObject({ model: "my-gpt4o" });
      expect(request!.headers.authorization).toBe(`Bearer ${apiKey}`);
    });

    it("should send an Entra ID bearer token on the v1 GA path", async () => {
      const subject = new AzureOpenAIChatModel("my-gpt4o", { endpoint: `${server.url}/openai/v1`, azureADTokenProvider: async () => "entra-token-1" });
      await run(subject, { messages: user });
      expect(server.requests[0]!.url).toBe("/openai/v1/chat/completions");
      expect(server.requests[0]!.headers.authorization).toBe("Bearer entra-token-1");
    });
  });

  it("should send the apiVersion option on the v1 GA path only when it is given (e.g. preview)", async () => {
    await new AzureOpenAIChatModel("my-gpt4o", { endpoint: `${server.url}/openai/v1`, apiKey, apiVersion: "preview" }).create({ messages: user });
    expect(server.requests[0]!.url).toBe("/openai/v1/chat/completions?api-version=preview");
  });
});

describe("Entra ID on the v1 endpoint and the openai version", () => {
  it("should refuse an openai older than 5.18, whose client would send the token function as the key", async () => {
    const { requireKeyFunctions } = await import("../../../src/adapters/azure-openai/create-azure-client.js");
    expect(() => requireKeyFunctions("5.17.0")).toThrow(/needs openai 5\.18 or later, and 5\.17\.0 is installed/);
    for (const version of ["5.18.0", "5.23.2", "6.49.0", undefined]) expect(() => requireKeyFunctions(version)).not.toThrow();
  });
});

import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { readLocalFixture, replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { answerWithText } from "../../support/openai-wire.js";
import { callModes, runCall, user } from "../../support/run-modes.js";
import { readOwnJSON, replyWith } from "../ollama/ollama-harness.js";

// docs/providers.md:123 — a `User-Agent`, `Accept` or `Content-Type` in `headers` (in any case) replaces the SDK's own.
describe.each(callModes)("Ollama headers through %s", (mode) => {
  const server = useLoopbackServer();
  it.each(["Content-Type", "content-type", "CONTENT-TYPE"])(
    "should send the caller's %s instead of the SDK's",
    async (name) => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const model = new OllamaChatModel("llama3.2", {
        host: server.url,
        retry: { maxRetries: 0 },
        headers: { [name]: "application/json; charset=utf-8" },
      });
      await runCall(model, { messages: [user("hi")] }, mode);
      expect(server.requests[0]!.headers["content-type"]).toBe("application/json; charset=utf-8");
    },
  );

  it("should replace the SDK's Content-Type on an abortable call too", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const model = new OllamaChatModel("llama3.2", {
      host: server.url,
      retry: { maxRetries: 0 },
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    await runCall(model, { messages: [user("hi")], signal: new AbortController().signal }, mode);
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("should replace the SDK's Accept", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const model = new OllamaChatModel("llama3.2", {
      host: server.url,
      retry: { maxRetries: 0 },
      headers: { accept: "application/x-ndjson, application/json" },
    });
    await runCall(model, { messages: [user("hi")] }, mode);
    expect(server.requests[0]!.headers["accept"]).toBe("application/x-ndjson, application/json");
  });
});

// docs/providers.md:181-182 — a blank tool result is sent as `(no output)`.
const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const withBlankResult = (output: string): Message[] => [
  { role: "user", content: "Check INC-001." },
  {
    role: "assistant",
    content: [{ type: "tool-call", id: "tooluse_a", name: "lookup_incident", args: { incident_id: "INC-001" } }],
  },
  { role: "tool", toolCallId: "tooluse_a", toolName: "lookup_incident", content: output },
];

describe.each(callModes)("Bedrock blank tool result through %s", (mode) => {
  const bedrock = useBedrockLoopback();
  const sent = () => bedrock.server.requests[0]!.json.messages as { role: string; content: Record<string, any>[] }[];

  it.each(["", " ", "\n\t "])("should send a tool result of %j as exactly '(no output)'", async (output) => {
    bedrock.server.handle(replyFor(replyOf(readLocalFixture("converse-text.json")), mode));
    await runCall(
      bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", { retry: { maxRetries: 0 } }),
      { messages: withBlankResult(output), tools: [lookupIncident] },
      mode,
    );
    expect(sent()[2]!.content).toEqual([
      { toolResult: { toolUseId: "tooluse_a", content: [{ text: "(no output)" }] } },
    ]);
  });

  it("should send a blank tool result as '(no output)' when the call has no tools (results go as text)", async () => {
    bedrock.server.handle(replyFor(replyOf(readLocalFixture("converse-text.json")), mode));
    await runCall(
      bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", { retry: { maxRetries: 0 } }),
      { messages: withBlankResult("  ") },
      mode,
    );
    const text = JSON.stringify(sent());
    expect(text).toContain("(no output)");
  });
});

// src/core/messages.ts:27 / docs: an `image/*` file given by https URL goes to OpenAI as an image_url (no download).
describe.each(callModes)("OpenAI image file by https URL through %s", (mode) => {
  const server = useLoopbackServer();
  let tcp: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    tcp = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    port = (tcp.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => tcp.close(() => resolve())));

  const models = {
    openai: () => new OpenAIChatModel("gpt-4o", { baseURL: `${server.url}/v1`, apiKey: "k", retry: { maxRetries: 0 } }),
    "azure-openai": () =>
      new AzureOpenAIChatModel("gpt-4o", { endpoint: server.url, apiKey: "k", retry: { maxRetries: 0 } }),
  };
  it.each(Object.keys(models) as (keyof typeof models)[])(
    "%s: should send the URL as image_url and never fetch it",
    async (name) => {
      answerWithText(server, "a cat");
      connections = 0;
      const url = `https://127.0.0.1:${port}/cat.png?sig=abc`;
      const messages: Message[] = [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "file", data: url, mediaType: "image/png", filename: "cat.png" },
          ],
        },
      ];
      const { output } = await runCall(models[name](), { messages }, mode);
      expect(output.text).toBe("a cat");
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.json.messages[0].content).toEqual([
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url } },
      ]);
      expect(connections).toBe(0);
    },
  );

  it("should do the same for an uppercase HTTPS URL and an image/jpeg type", async () => {
    answerWithText(server, "ok");
    const url = `HTTPS://127.0.0.1:${port}/photo.jpg`;
    await runCall(
      models.openai(),
      { messages: [{ role: "user", content: [{ type: "file", data: url, mediaType: "image/jpeg" }] }] },
      mode,
    );
    expect(server.requests[0]!.json.messages[0].content).toEqual([{ type: "image_url", image_url: { url } }]);
  });
});

describe.each(callModes)("Bedrock blank tool result with toolChoice none through %s", (mode) => {
  const bedrock = useBedrockLoopback();
  it("should send '(no output)' when tool_choice none leaves the tools out", async () => {
    bedrock.server.handle(replyFor(replyOf(readLocalFixture("converse-text.json")), mode));
    const { output } = await runCall(
      bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", { retry: { maxRetries: 0 } }),
      { messages: withBlankResult(""), tools: [lookupIncident], toolChoice: "none" },
      mode,
    );
    const body = bedrock.server.requests[0]!.json;
    expect(output.meta.toolChoice).toBe("emulated");
    expect(body.toolConfig).toBeUndefined();
    expect(body.messages[2].content).toEqual([{ text: "[result of tool lookup_incident (tooluse_a)]: (no output)" }]);
  });
});

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { GoogleChatModel } from "../../../src/adapters/google/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { resetLearnedCapabilities } from "../../../src/core/capabilities/learned-capabilities.js";
import { usesKeyword } from "../../../src/core/schema/project-schema.js";
import type { JSONSchema, ToolDefinition, WarningEvent } from "../../../src/index.js";
import { ProviderError } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { anthropicTextReply } from "../../support/anthropic-wire.js";
import { geminiTextReply } from "../../support/gemini-wire.js";
import { useLoopbackServer, type LoopbackServer } from "../../support/loopback-server.js";
import { connectEverythingServer } from "../../support/mcp-everything.js";
import { recursiveSchema, refSchema } from "../../support/mcp-schemas.js";
import { jsonResponse, openAITextReply } from "../../support/openai-wire.js";
import type { ReplayResponse } from "../../../src/testing/index.js";
import { hasSharedFixtures, readFixture } from "../../support/shared-fixtures.js";
import { createOllamaModel, replyWith } from "../ollama/ollama-harness.js";

const server = useLoopbackServer();
const fileTool: ToolDefinition = { name: "write_file", description: "Write a file.", inputSchema: refSchema };
const treeTool: ToolDefinition = { name: "make_tree", inputSchema: recursiveSchema };
const ask = [{ role: "user" as const, content: "Write it." }];
const validArgs = { path: "/tmp/a", owner: { name: "Ada" }, mode: { kind: "read" } };

function answer(target: LoopbackServer, ...replies: ReplayResponse[]): void {
  let next = 0;
  target.handle((_request, response) => {
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    response.writeHead(reply.status ?? 200, reply.headers);
    response.end(reply.body as string);
  });
}

const geminiCall = (args: object) =>
  jsonResponse({
    candidates: [
      { content: { role: "model", parts: [{ functionCall: { name: "write_file", args } }] }, finishReason: "STOP" },
    ],
  });
const gemini = () =>
  new GoogleChatModel("gemini-2.5-flash", { baseURL: server.url, apiKey: "AIza-test", retry: { maxRetries: 0 } });
const sentDeclarations = (index = 0) =>
  (server.requests[index]!.json as any).tools[0].functionDeclarations as {
    name: string;
    parametersJsonSchema: JSONSchema;
  }[];

beforeEach(() => resetLearnedCapabilities());

describe("schemas per provider, on the wire", () => {
  it("GoogleChatModel should send Gemini's subset, warn once per tool naming the changes, and validate against the original", async () => {
    answer(server, geminiCall({ ...validArgs, path: "relative/path" }), geminiCall(validArgs));
    const model = gemini();
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    const output = await model.create({ messages: ask, tools: [fileTool, treeTool], toolChoice: "required" });
    const [file, tree] = sentDeclarations();
    for (const keyword of ["$ref", "$defs", "definitions", "additionalProperties", "$schema", "oneOf", "const"]) {
      expect(usesKeyword(file!.parametersJsonSchema, keyword)).toBe(false);
      expect(usesKeyword(tree!.parametersJsonSchema, keyword)).toBe(false);
    }
    expect(usesKeyword(file!.parametersJsonSchema, "pattern")).toBe(true);
    // The first reply broke the original schema's `pattern`: re-asked, then answered.
    expect(server.requests).toHaveLength(2);
    expect(output.toolCalls[0]!.args).toEqual(validArgs);
    const projected = warnings.filter((event) => event.code === "schema-projected");
    expect(projected.map((event) => event.message)).toEqual([
      expect.stringMatching(/tool 'write_file'.*'\$schema' left out.*'\$ref' inlined.*validated against the original/),
      expect.stringMatching(/tool 'make_tree'.*recursive '\$ref'/),
    ]);
    await model.create({ messages: ask, tools: [fileTool] }).catch(() => undefined);
    expect(warnings.filter((event) => event.code === "schema-projected")).toHaveLength(2);
  });

  it("GoogleChatModel should send a response format's schema in Gemini's subset", async () => {
    answer(server, geminiTextReply(JSON.stringify(validArgs)).create!);
    const output = await gemini().create({
      messages: ask,
      responseFormat: { type: "json-schema", name: "file", schema: refSchema },
    });
    const sent = (server.requests[0]!.json as any).generationConfig.responseJsonSchema;
    expect(usesKeyword(sent, "$ref")).toBe(false);
    expect(usesKeyword(sent, "additionalProperties")).toBe(false);
    expect(output.object).toEqual(validArgs);
  });

  it("GoogleChatModel should learn a schema keyword Gemini refused, send the call again without it, and leave it out from then on", async () => {
    const refusal = jsonResponse(
      {
        error: {
          code: 400,
          message:
            "Invalid JSON payload received. Unknown name \"pattern\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
          status: "INVALID_ARGUMENT",
        },
      },
      400,
    );
    answer(server, refusal, geminiCall(validArgs));
    const model = gemini();
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    const output = await model.create({ messages: ask, tools: [fileTool] });
    expect(output.toolCalls[0]!.args).toEqual(validArgs);
    expect(usesKeyword(sentDeclarations(0)[0]!.parametersJsonSchema, "pattern")).toBe(true);
    expect(usesKeyword(sentDeclarations(1)[0]!.parametersJsonSchema, "pattern")).toBe(false);
    expect(warnings.find((event) => event.code === "learned-capability")?.message).toMatch(/schema keyword 'pattern'/);
    // Another model of the same endpoint and model starts from what was learned.
    answer(server, geminiCall(validArgs));
    await gemini().create({ messages: ask, tools: [fileTool] });
    expect(usesKeyword(sentDeclarations(2)[0]!.parametersJsonSchema, "pattern")).toBe(false);
  });

  it.skipIf(!hasSharedFixtures)(
    "GoogleChatModel should name additionalProperties as the refused keyword of the recorded 400 (gptel#806)",
    async () => {
      const body = `{"error": ${readFixture("gemini/generate-error-400-additional-properties.issue-gptel-806.error.json")}}`;
      answer(server, jsonResponse(body, 400));
      const error = (await gemini()
        .create({ messages: ask })
        .catch((caught: unknown) => caught)) as ProviderError;
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error.reason).toBe("invalid-request");
      expect(error.rejectedParameter).toEqual({ name: "schema_keyword", value: "additionalProperties" });
    },
  );

  it("OpenAIChatModel should send the schema as it is", async () => {
    answer(server, openAITextReply("ok").create!);
    await new OpenAIChatModel("gpt-4o-mini", { baseURL: server.url, apiKey: "sk-test" }).create({
      messages: ask,
      tools: [fileTool],
    });
    expect((server.requests[0]!.json as any).tools[0].function.parameters).toEqual(refSchema);
  });

  it("AnthropicChatModel should send the schema as it is", async () => {
    answer(server, anthropicTextReply("ok").create!);
    await new AnthropicChatModel("claude-sonnet-4-5", { baseURL: server.url, apiKey: "sk-ant-test" }).create({
      messages: ask,
      tools: [fileTool],
    });
    expect((server.requests[0]!.json as any).tools[0].input_schema).toEqual(refSchema);
  });

  it("OllamaChatModel should inline $refs for its grammar and keep the rest", async () => {
    server.handle(
      replyWith({
        model: "llama3.2",
        created_at: "2025-01-01T00:00:00Z",
        message: { role: "assistant", content: "ok" },
        done: true,
        done_reason: "stop",
      }),
    );
    await createOllamaModel(server.url).create({ messages: ask, tools: [fileTool] });
    const sent = (server.requests[0]!.json as any).tools[0].function.parameters;
    expect(usesKeyword(sent, "$ref")).toBe(false);
    expect(usesKeyword(sent, "$schema")).toBe(false);
    expect(usesKeyword(sent, "pattern")).toBe(true);
    expect(usesKeyword(sent, "additionalProperties")).toBe(true);
  });
});

describe("the reference MCP server's schemas on Gemini's wire", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectEverythingServer();
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it("should send every tool's input schema less $schema", async () => {
    const tools = await mcpTools(client);
    answer(server, geminiTextReply("ok").create!);
    await gemini().create({ messages: ask, tools });
    const listed = (await client.listTools()).tools;
    const sent = sentDeclarations();
    expect(sent.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    for (const [index, tool] of listed.entries()) {
      const { $schema: _schema, ...rest } = tool.inputSchema as JSONSchema;
      expect(sent[index]!.parametersJsonSchema).toEqual(rest);
    }
  });
});

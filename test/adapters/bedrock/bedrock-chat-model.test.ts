import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { MemoryCache } from "../../../src/index.js";
import {
  fakeCredentials,
  readLocalFixture,
  replyFor,
  replyOf,
  useBedrockLoopback,
} from "../../support/bedrock-loopback.js";
import type { Reply } from "../../support/bedrock-loopback.js";
import { callModes, runCall } from "../../support/run-modes.js";

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  description: "Look up an incident by id.",
  inputSchema: {
    type: "object",
    properties: { incident_id: { type: "string" } },
    required: ["incident_id"],
    additionalProperties: false,
  },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};

const textReply = () => replyOf(readLocalFixture("converse-text.json"));
const toolUseReply = () => replyOf(readLocalFixture("converse-tool-use.json"), 3);
/** A reply whose text is the given string (the union and prompt rungs answer in text). */
const textReplyOf = (text: string): Reply =>
  replyOf({
    output: { message: { role: "assistant", content: [{ text }] } },
    stopReason: "end_turn",
    usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
  });
const toolUseReplyOf = (name: string, input: Record<string, unknown>): Reply =>
  replyOf({
    output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_forced01", name, input } }] } },
    stopReason: "tool_use",
    usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
  });

const ask: Message[] = [{ role: "user", content: "What is INC-001?" }];

describe("BedrockChatModel", () => {
  const bedrock = useBedrockLoopback();
  const body = (index = 0) => bedrock.server.requests[index]!.json;

  describe.each(callModes)("through %s", (mode) => {
    const operation = mode === "create" ? "converse" : "converse-stream";

    it(`should POST to /model/<id>/${operation} and read text, finish reason and usage`, async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const { output, chunks } = await runCall(bedrock.model("us.amazon.nova-micro-v1:0"), { messages: ask }, mode);

      expect(bedrock.server.requests).toHaveLength(1);
      expect(bedrock.server.requests[0]!.method).toBe("POST");
      expect(bedrock.server.requests[0]!.url).toBe(`/model/us.amazon.nova-micro-v1%3A0/${operation}`);
      expect(bedrock.server.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDSENTINEL\//);
      expect(body()).toEqual({ messages: [{ role: "user", content: [{ text: "What is INC-001?" }] }] });
      expect(output.text).toBe("INC-001 is an outage of auth-api.");
      expect(output.finishReason).toBe("stop");
      expect(output.usage).toEqual({
        inputTokens: 25,
        outputTokens: 9,
        totalTokens: 34,
        cachedInputTokens: 4,
        costUsd: expect.any(Number),
      });
      expect(output.meta.toolChoice).toBe("native");
      if (mode === "createStream") {
        const deltas = chunks.filter((chunk) => chunk.type === "text-delta");
        expect(deltas.length).toBeGreaterThan(1);
        expect(deltas.map((chunk) => chunk.text).join("")).toBe(output.text);
      }
    });

    it("should lift system prompts into system and send history as merged Converse turns", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const messages: Message[] = [
        { role: "system", content: "You are the incident bot." },
        { role: "user", content: "Check INC-001 and page the owners." },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Two things to do.", signature: "sig-1" },
            { type: "reasoning", text: "unsigned reasoning from another provider" },
            { type: "text", text: "On it." },
            { type: "tool-call", id: "tooluse_a", name: "lookup_incident", args: { incident_id: "INC-001" } },
            { type: "tool-call", id: "tooluse_b", name: "page_on_call", args: { team: "auth" } },
          ],
        },
        { role: "tool", toolCallId: "tooluse_a", toolName: "lookup_incident", content: "auth-api outage" },
        { role: "tool", toolCallId: "tooluse_b", toolName: "page_on_call", content: "paged" },
        {
          role: "user",
          content: [
            { type: "text", text: "Summarise." },
            { type: "image", image: "aGVsbG8=", mediaType: "image/png" },
          ],
        },
      ];
      await runCall(
        bedrock.model("anthropic.claude-3-5-sonnet-20240620-v1:0"),
        { messages, tools: [lookupIncident, pageOnCall] },
        mode,
      );

      expect(body().system).toEqual([{ text: "You are the incident bot." }]);
      expect(body().messages).toEqual([
        { role: "user", content: [{ text: "Check INC-001 and page the owners." }] },
        {
          role: "assistant",
          content: [
            { reasoningContent: { reasoningText: { text: "Two things to do.", signature: "sig-1" } } },
            { text: "On it." },
            { toolUse: { toolUseId: "tooluse_a", name: "lookup_incident", input: { incident_id: "INC-001" } } },
            { toolUse: { toolUseId: "tooluse_b", name: "page_on_call", input: { team: "auth" } } },
          ],
        },
        {
          role: "user",
          content: [
            { toolResult: { toolUseId: "tooluse_a", content: [{ text: "auth-api outage" }] } },
            { toolResult: { toolUseId: "tooluse_b", content: [{ text: "paged" }] } },
            { text: "Summarise." },
            // Blob members travel base64 in the JSON body.
            { image: { format: "png", source: { bytes: "aGVsbG8=" } } },
          ],
        },
      ]);
    });

    it.each([
      ["required", "anthropic.claude-3-5-sonnet-20240620-v1:0", { any: {} }],
      ["auto", "anthropic.claude-3-5-sonnet-20240620-v1:0", { auto: {} }],
      ["required", "us.amazon.nova-pro-v1:0", { any: {} }],
    ] as const)("should send toolConfig with tool_choice %s on %s as %j", async (toolChoice, modelId, wire) => {
      bedrock.server.handle(replyFor(toolUseReply(), mode));
      const { output } = await runCall(
        bedrock.model(modelId),
        { messages: ask, tools: [lookupIncident, pageOnCall], toolChoice },
        mode,
      );

      expect(body().toolConfig).toEqual({
        tools: [
          {
            toolSpec: {
              name: "lookup_incident",
              description: "Look up an incident by id.",
              inputSchema: { json: lookupIncident.inputSchema },
            },
          },
          { toolSpec: { name: "page_on_call", inputSchema: { json: pageOnCall.inputSchema } } },
        ],
        toolChoice: wire,
      });
      expect(output.meta.toolChoice).toBe("native");
      expect(output.finishReason).toBe("tool-calls");
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: "tooluse_lookup01", name: "lookup_incident", args: { incident_id: "INC-001" } },
      ]);
    });

    it("should force a single tool with toolChoice.tool", async () => {
      bedrock.server.handle(replyFor(toolUseReply(), mode));
      await runCall(
        bedrock.model("global.anthropic.claude-sonnet-4-20250514-v1:0"),
        { messages: ask, tools: [lookupIncident, pageOnCall], toolChoice: { type: "tool", name: "lookup_incident" } },
        mode,
      );
      expect(body().toolConfig.toolChoice).toEqual({ tool: { name: "lookup_incident" } });
      expect(body().toolConfig.tools).toHaveLength(2);
    });

    it("should send no toolConfig for toolChoice none, and past tool calls as text", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const messages: Message[] = [
        ...ask,
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "tooluse_a", name: "lookup_incident", args: { incident_id: "INC-001" } }],
        },
        { role: "tool", toolCallId: "tooluse_a", toolName: "lookup_incident", content: "auth-api outage" },
      ];
      const { output } = await runCall(
        bedrock.model("anthropic.claude-3-5-sonnet-20240620-v1:0"),
        { messages, tools: [lookupIncident], toolChoice: "none" },
        mode,
      );

      expect(body()).not.toHaveProperty("toolConfig");
      expect(JSON.stringify(body().messages)).not.toMatch(/toolUse|toolResult/);
      expect(body().messages[1]).toEqual({
        role: "assistant",
        content: [{ text: '[called tool lookup_incident (tooluse_a) with {"incident_id":"INC-001"}]' }],
      });
      expect(output.meta.toolChoice).toBe("emulated");
      expect(output.toolCalls).toEqual([]);
    });

    it("should send no toolConfig for toolChoice none even when the support set claims none", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const model = bedrock.model("anthropic.claude-3-5-sonnet-20240620-v1:0", {
        toolChoiceSupport: ["auto", "none", "required", "single"],
      });
      const { output } = await runCall(model, { messages: ask, tools: [lookupIncident], toolChoice: "none" }, mode);

      expect(output.meta.toolChoice).toBe("native"); // the base class sent "none" with the tools
      expect(body()).not.toHaveProperty("toolConfig");
    });

    it("should force a call on a Llama model (auto only, no structured output) through the prompt, without toolConfig", async () => {
      bedrock.server.handle(
        replyFor(textReplyOf('{"name":"lookup_incident","parameters":{"incident_id":"INC-001"}}'), mode),
      );
      const { output } = await runCall(
        bedrock.model("us.meta.llama3-3-70b-instruct-v1:0"),
        { messages: ask, tools: [lookupIncident], toolChoice: "required" },
        mode,
      );

      expect(body()).not.toHaveProperty("toolConfig");
      expect(body()).not.toHaveProperty("outputConfig");
      expect(body().system[0].text).toContain("You must call a tool");
      expect(body().system[0].text).toContain('"lookup_incident"');
      expect(output.meta.toolChoice).toBe("prompt");
      expect(output.toolCalls).toHaveLength(1);
      expect(output.toolCalls[0]).toMatchObject({ name: "lookup_incident", args: { incident_id: "INC-001" } });
      expect(output.toolCalls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
    });

    it("should force a call on an open-weight model with structured output through outputConfig.textFormat", async () => {
      bedrock.server.handle(
        replyFor(textReplyOf('{"item":{"name":"lookup_incident","parameters":{"incident_id":"INC-001"}}}'), mode),
      );
      const { output } = await runCall(
        bedrock.model("qwen.qwen3-32b-v1:0"),
        { messages: ask, tools: [lookupIncident], toolChoice: "required" },
        mode,
      );

      expect(body()).not.toHaveProperty("toolConfig");
      const textFormat = body().outputConfig.textFormat;
      expect(textFormat.type).toBe("json_schema");
      expect(textFormat.structure.jsonSchema.name).toBe("tool_call");
      const schema = JSON.parse(textFormat.structure.jsonSchema.schema as string);
      expect(schema).toMatchObject({ type: "object", required: ["item"] }); // no top-level union on Bedrock
      expect(JSON.stringify(schema)).toContain('"enum":["lookup_incident"]');
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls[0]).toMatchObject({ name: "lookup_incident", args: { incident_id: "INC-001" } });
    });

    it("should send a JSON-schema response format as outputConfig.textFormat on Claude Sonnet 4.5", async () => {
      bedrock.server.handle(replyFor(textReplyOf('{"summary":"auth-api outage","severity":2}'), mode));
      const schema = {
        type: "object",
        properties: { summary: { type: "string" }, severity: { type: "integer" } },
        required: ["summary", "severity"],
        additionalProperties: false,
      };
      const { output } = await runCall(
        bedrock.model("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
        { messages: ask, responseFormat: { type: "json-schema", name: "incident", schema } },
        mode,
      );

      expect(body()).not.toHaveProperty("toolConfig");
      expect(body().outputConfig.textFormat.type).toBe("json_schema");
      expect(body().outputConfig.textFormat.structure.jsonSchema.name).toBe("incident");
      expect(JSON.parse(body().outputConfig.textFormat.structure.jsonSchema.schema as string)).toEqual(schema);
      expect(output.object).toEqual({ summary: "auth-api outage", severity: 2 });
    });

    it("should ask for plain JSON with a system instruction (Converse has no JSON mode)", async () => {
      bedrock.server.handle(replyFor(textReplyOf('{"status":"resolved"}'), mode));
      const { output } = await runCall(
        bedrock.model("us.anthropic.claude-haiku-4-5-20251001-v1:0"),
        { messages: ask, responseFormat: { type: "json" } },
        mode,
      );

      expect(body()).not.toHaveProperty("outputConfig");
      expect(body().system).toEqual([{ text: "Answer with only a JSON value, and nothing else." }]);
      expect(output.object).toEqual({ status: "resolved" });
    });

    it("should carry a structured output as a forced tool on Nova, which has no textFormat", async () => {
      bedrock.server.handle(replyFor(toolUseReplyOf("incident", { summary: "auth-api outage" }), mode));
      const schema = { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] };
      const { output } = await runCall(
        bedrock.model("us.amazon.nova-lite-v1:0"),
        { messages: ask, responseFormat: { type: "json-schema", name: "incident", schema } },
        mode,
      );

      expect(body()).not.toHaveProperty("outputConfig");
      expect(body().toolConfig.toolChoice).toEqual({ tool: { name: "incident" } });
      expect(body().toolConfig.tools[0].toolSpec.name).toBe("incident");
      expect(output.object).toEqual({ summary: "auth-api outage" });
    });

    it("should read reasoning with its signature, text and the tool call, and keep the message whole", async () => {
      bedrock.server.handle(replyFor(replyOf(readLocalFixture("converse-reasoning-text-tool-use.json"), 4), mode));
      const { output, chunks } = await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages: ask, tools: [lookupIncident] },
        mode,
      );

      expect(output.reasoning).toBe("The user wants the incident; look it up first.");
      expect(output.text).toBe("Let me look that up.");
      expect(output.message.content).toEqual([
        {
          type: "reasoning",
          text: "The user wants the incident; look it up first.",
          signature: "c2lnbmF0dXJlLW9mLXRoZS1yZWFzb25pbmc=",
        },
        { type: "text", text: "Let me look that up." },
        { type: "tool-call", id: "tooluse_lookup02", name: "lookup_incident", args: { incident_id: "INC-002" } },
      ]);
      expect(output.finishReason).toBe("tool-calls");
      if (mode === "createStream") {
        const argsDeltas = chunks.filter((chunk) => chunk.type === "tool-call-delta" && chunk.argsDelta);
        expect(argsDeltas.length).toBeGreaterThan(1); // the input arrived in fragments, merged by index
        expect(chunks.some((chunk) => chunk.type === "reasoning-delta")).toBe(true);
      }
    });

    it("should map parameters to inferenceConfig, topK per family, and merge providerOptions", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      await runCall(
        bedrock.model("anthropic.claude-3-haiku-20240307-v1:0"),
        {
          messages: ask,
          parameters: { maxTokens: 256, temperature: 0.2, topP: 0.9, topK: 40, stop: ["END"], seed: 7 },
          providerOptions: {
            additionalModelRequestFields: { anthropic_beta: ["x"] },
            requestMetadata: { team: "sre" },
          },
        },
        mode,
      );
      expect(body().inferenceConfig).toEqual({ maxTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ["END"] });
      expect(body().additionalModelRequestFields).toEqual({ top_k: 40, anthropic_beta: ["x"] });
      expect(body().requestMetadata).toEqual({ team: "sre" });
    });
  });

  it("should answer a repeated call from the cache, with a key that holds no credential", async () => {
    bedrock.server.handle(replyFor(textReply(), "create"));
    const keys: string[] = [];
    const model = bedrock.model("us.amazon.nova-micro-v1:0", { cache: new MemoryCache() });
    model.emitter.on("cacheHit", ({ key }) => keys.push(key));
    await model.create({ messages: ask });
    const second = await model.create({ messages: ask });

    expect(second.meta.cacheHit).toBe(true);
    expect(bedrock.server.requests).toHaveLength(1);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(fakeCredentials.secretAccessKey);
    expect(keys[0]).not.toContain(fakeCredentials.accessKeyId);
    expect(Object.keys(model)).not.toContain("secrets");
  });
});

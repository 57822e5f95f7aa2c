import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantContentPart, Message, ToolDefinition } from "../../../src/index.js";
import { MemoryCache } from "../../../src/index.js";
import { RecordingChatModel, ReplayChatModel } from "../../../src/testing/index.js";
import { replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { callModes, runCall } from "../../support/run-modes.js";

const ask: Message[] = [{ role: "user", content: "Where is the user?" }];
const lookup: ToolDefinition = { name: "get_user_country", inputSchema: { type: "object", properties: {} } };
const encrypted = Buffer.from("encrypted-thinking-from-claude").toString("base64");

/** Converse content blocks as Claude on Bedrock may send them, and the assistant parts keelson must keep. */
interface Shape {
  name: string;
  content: Record<string, unknown>[];
  parts: AssistantContentPart[];
}

const toolUse = { toolUse: { toolUseId: "tooluse_1", name: "get_user_country", input: {} } };
const toolCallPart = { type: "tool-call", id: "tooluse_1", name: "get_user_country", args: {} } as const;

const shapes: Shape[] = [
  {
    name: "a redacted block first, then a signed one",
    content: [
      { reasoningContent: { redactedContent: encrypted } },
      { reasoningContent: { reasoningText: { text: "I look it up.", signature: "sig-one" } } },
      toolUse,
    ],
    parts: [
      { type: "reasoning", text: "", redactedData: encrypted },
      { type: "reasoning", text: "I look it up.", signature: "sig-one" },
      toolCallPart,
    ],
  },
  {
    name: "only a redacted block",
    content: [{ reasoningContent: { redactedContent: encrypted } }, toolUse],
    parts: [{ type: "reasoning", text: "", redactedData: encrypted }, toolCallPart],
  },
  {
    name: "a signed block without text",
    content: [{ reasoningContent: { reasoningText: { text: "", signature: "sig-empty" } } }, toolUse],
    parts: [{ type: "reasoning", text: "", signature: "sig-empty" }, toolCallPart],
  },
  {
    name: "two redacted blocks, then text",
    content: [
      { reasoningContent: { redactedContent: encrypted } },
      { reasoningContent: { redactedContent: encrypted } },
      { text: "Looking." },
      toolUse,
    ],
    parts: [
      { type: "reasoning", text: "", redactedData: encrypted },
      { type: "reasoning", text: "", redactedData: encrypted },
      { type: "text", text: "Looking." },
      toolCallPart,
    ],
  },
];

const reply = (content: Record<string, unknown>[]) =>
  replyOf({
    output: { message: { role: "assistant", content } },
    stopReason: "tool_use",
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  });
const claude = "us.anthropic.claude-3-7-sonnet-20250219-v1:0";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-reasoning-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("BedrockChatModel reasoning blocks without text", () => {
  const bedrock = useBedrockLoopback();

  describe.each(callModes)("through %s", (mode) => {
    it.each(shapes)("should keep $name in the message, sent back as it came", async ({ content, parts }) => {
      bedrock.server.handle(replyFor(reply(content), mode));
      const model = bedrock.model(claude);
      const { output } = await runCall(model, { messages: ask, tools: [lookup] }, mode);
      expect(output.message.content).toEqual(parts);

      const history: Message[] = [
        ...ask,
        output.message,
        { role: "tool", toolCallId: "tooluse_1", toolName: "get_user_country", content: "France" },
      ];
      await runCall(model, { messages: history, tools: [lookup] }, mode);
      expect(bedrock.server.requests[1]!.json.messages[1]).toEqual({ role: "assistant", content });
    });

    it.each(shapes)("should serve $name whole from the cache, in either mode", async ({ content, parts }) => {
      bedrock.server.handle(replyFor(reply(content), mode));
      const model = bedrock.model(claude, { cache: new MemoryCache() });
      await runCall(model, { messages: ask, tools: [lookup] }, mode);
      for (const hitMode of callModes) {
        const { output } = await runCall(model, { messages: ask, tools: [lookup] }, hitMode);
        expect(output.meta.cacheHit).toBe(true);
        expect(output.message.content).toEqual(parts);
      }
      expect(bedrock.server.requests).toHaveLength(1);
    });

    it.each(shapes)("should record and replay $name whole, in either mode", async ({ content, parts }) => {
      bedrock.server.handle(replyFor(reply(content), mode));
      const cassette = join(folder, "reasoning.json");
      const live = new RecordingChatModel(bedrock.model(claude), { cassette });
      await runCall(live, { messages: ask, tools: [lookup] }, mode);
      for (const replayMode of callModes) {
        const { output } = await runCall(new ReplayChatModel(cassette), { messages: ask, tools: [lookup] }, replayMode);
        expect(output.message.content).toEqual(parts);
      }
    });
  });
});

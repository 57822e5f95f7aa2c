import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { sendJSON } from "../../support/loopback-http2-server.js";
import { replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const claude = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const textReply = replyOf({
  output: { message: { role: "assistant", content: [{ text: "INC-001 is an outage of auth-api." }] } },
  stopReason: "end_turn",
  usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
});
const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const conversation: Message[] = [
  { role: "system", content: "You are the incident bot." },
  { role: "user", content: "What broke?" },
  {
    role: "assistant",
    content: [{ type: "tool-call", id: "tooluse_1", name: "lookup_incident", args: { incident_id: "INC-001" } }],
  },
  { role: "tool", toolCallId: "tooluse_1", toolName: "lookup_incident", content: "auth-api is down" },
];
const point = { cachePoint: { type: "default" } };

/** Where a Converse body carries `cachePoint` blocks: after which system block, tool or message block. */
function cachePoints(body: Record<string, any>): string[] {
  const found: string[] = [];
  const scan = (blocks: any[] | undefined, where: string) =>
    (blocks ?? []).forEach((block, index) => {
      if (!block.cachePoint) return;
      const before = blocks![index - 1] ?? {};
      found.push(`${where}:${Object.keys(before)[0] ?? "nothing"}`);
    });
  scan(body.system, "system");
  scan(body.toolConfig?.tools, "tools");
  (body.messages ?? []).forEach((message: any, index: number) => scan(message.content, `message ${index}`));
  return found;
}

describe("BedrockChatModel promptCache", () => {
  const bedrock = useBedrockLoopback();
  const body = (index = -1) => bedrock.server.requests.at(index)!.json as Record<string, any>;

  it("should place cachePoint blocks after the system prompt, the tools and the last message on Claude", async () => {
    bedrock.server.handle((_request, response) => sendJSON(response, 200, textReply.converse));
    const messages: Message[] = [...conversation.slice(0, 2)];
    const before = structuredClone(messages);
    await bedrock.model(claude, { promptCache: "auto" }).create({ messages, tools: [lookupIncident] });
    expect(cachePoints(body())).toEqual(["system:text", "tools:toolSpec", "message 0:text"]);
    expect(body().system).toEqual([{ text: "You are the incident bot." }, point]);
    expect(body().messages.at(-1).content.at(-1)).toEqual(point);
    expect(messages).toEqual(before);
  });

  it("should never place one on a tool result: it walks back to the last message that takes one", async () => {
    bedrock.server.handle((_request, response) => sendJSON(response, 200, textReply.converse));
    await bedrock.model(claude, { promptCache: "auto" }).create({ messages: conversation, tools: [lookupIncident] });
    // The tool result is the last message: the point goes after the assistant's toolUse, before it.
    expect(cachePoints(body())).toEqual(["system:text", "tools:toolSpec", "message 1:toolUse"]);
    const results = body().messages.at(-1).content as Record<string, unknown>[];
    expect(results.some((block) => "toolResult" in block)).toBe(true);
    expect(results.some((block) => "cachePoint" in block)).toBe(false);
  });

  it("should place them on Nova too, from the call's option", async () => {
    bedrock.server.handle((_request, response) => sendJSON(response, 200, textReply.converse));
    await bedrock.model("us.amazon.nova-pro-v1:0").create({ messages: conversation.slice(0, 2), promptCache: "auto" });
    expect(cachePoints(body())).toEqual(["system:text", "message 0:text"]);
  });

  it("should place none on a family that takes no cachePoint, nor when promptCache is off", async () => {
    bedrock.server.handle((_request, response) => sendJSON(response, 200, textReply.converse));
    await bedrock.model("meta.llama3-1-70b-instruct-v1:0").create({ messages: conversation, promptCache: "auto" });
    await bedrock.model(claude).create({ messages: conversation, tools: [lookupIncident] });
    expect(JSON.stringify(body(0))).not.toContain("cachePoint");
    expect(JSON.stringify(body(1))).not.toContain("cachePoint");
  });

  it("should never mark a re-ask's guidance: the second request keeps its points where the first had them", async () => {
    const invalidCall = replyOf({
      output: {
        message: {
          role: "assistant",
          content: [{ toolUse: { toolUseId: "tooluse_2", name: "lookup_incident", input: { incident: 7 } } }],
        },
      },
      stopReason: "tool_use",
      usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
    });
    bedrock.server.handle(
      (_request, response) => sendJSON(response, 200, invalidCall.converse),
      (_request, response) => sendJSON(response, 200, textReply.converse),
    );
    const model = bedrock.model(claude, { promptCache: "auto" });
    const repairs: unknown[] = [];
    model.emitter.on("repair", (event) => repairs.push(event));
    await model.create({ messages: conversation.slice(0, 2), tools: [lookupIncident] });
    expect(repairs).toHaveLength(1);
    expect(bedrock.server.requests).toHaveLength(2);
    expect(JSON.stringify(body(1).messages.at(-1))).toContain("could not be used");
    expect(cachePoints(body(1))).toEqual(["system:text", "tools:toolSpec", "message 0:text"]);
    expect(body(1).messages[0].content.at(-1)).toEqual(point);
  });
});

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "BedrockChatModel promptCache savings, on recorded usage" : missingFixturesMessage,
  () => {
    const bedrock = useBedrockLoopback();
    it.each([
      ["bedrock/converse-nonstream-cache-point-write.json", "cacheWriteInputTokens"],
      ["bedrock/converse-nonstream-cache-point-read.json", "cacheReadInputTokens"],
    ])("should price %s's cache tokens at their own rate in usage.costUsd", async (fixture) => {
      const recorded = JSON.parse(readFixture(fixture)) as { usage: Record<string, number> };
      bedrock.server.handle((_request, response) => sendJSON(response, 200, recorded));
      const model = bedrock.model(claude, { promptCache: "auto" });
      const output = await model.create({ messages: conversation.slice(0, 2) });
      const { inputTokens, outputTokens, cacheReadInputTokens: read, cacheWriteInputTokens: write } = recorded.usage;
      expect(output.usage).toMatchObject({
        inputTokens: inputTokens! + read! + write!,
        outputTokens,
      });
      expect(output.usage.cachedInputTokens ?? 0).toBe(read);
      expect(output.usage.cacheWriteInputTokens ?? 0).toBe(write);
      // Claude Sonnet 4.5's list prices, USD per million tokens: input 3, cache read 0.30, cache write 3.75, output 15.
      expect(model.profile.pricing).toEqual({
        inputPerMTok: 3,
        outputPerMTok: 15,
        cachedInputPerMTok: 0.3,
        cacheWritePerMTok: 3.75,
      });
      const expected = (inputTokens! * 3 + read! * 0.3 + write! * 3.75 + outputTokens! * 15) / 1_000_000;
      expect(output.usage.costUsd).toBeCloseTo(expected, 12);
    });
  },
);

import { describe, expect, it } from "vitest";
import type { ChatModelChunk, ToolDefinition } from "../../../src/index.js";
import { ProviderError } from "../../../src/index.js";
import {
  parseNDJSON,
  recordedRequestBody,
  replayInteraction,
  useBedrockLoopback,
} from "../../support/bedrock-loopback.js";
import type { CassetteInteraction } from "../../support/shared-fixtures.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readFixture,
  readJSONFixture,
} from "../../support/shared-fixtures.js";
import { runCall } from "../../support/run-modes.js";

const interaction = (name: string): CassetteInteraction => readCassette(`bedrock/${name}.cassette.yaml`)[0]!;
const recordedPath = (recorded: CassetteInteraction) => new URL(recorded.request.uri).pathname;
/** The tools of a recorded request, as keelson tool definitions. */
const recordedTools = (recorded: CassetteInteraction): ToolDefinition[] =>
  recordedRequestBody(recorded).toolConfig.tools.map(({ toolSpec }: any) => ({
    name: toolSpec.name,
    description: toolSpec.description,
    inputSchema: toolSpec.inputSchema.json,
  }));
const textOfEvents = (events: Record<string, any>[]) =>
  events.map((event) => event.contentBlockDelta?.delta?.text ?? "").join("");

describe("BedrockChatModel", () => {
  describe.skipIf(!hasSharedFixtures)(
    `replaying ../shared/fixtures/bedrock${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`,
    () => {
      const bedrock = useBedrockLoopback();
      const request = (index = 0) => bedrock.server.requests[index]!;

      it("should read a recorded Converse text reply at the recorded path", async () => {
        const recorded = interaction("converse-nonstream-text");
        bedrock.server.handle(replayInteraction(recorded));
        const output = await bedrock
          .model("us.amazon.nova-micro-v1:0")
          .create({ messages: [{ role: "user", content: "Hello" }] });

        expect(request().url).toBe(recordedPath(recorded));
        const reply = readJSONFixture<any>("bedrock/converse-nonstream-text.json");
        expect(output.text).toBe(reply.output.message.content[0].text);
        expect(output.finishReason).toBe("stop");
        expect(output.usage).toEqual({
          inputTokens: 7,
          outputTokens: 30,
          totalTokens: 37,
          costUsd: expect.any(Number),
        });
        expect((output.raw as any).output).toEqual(reply.output);
      });

      it("should send toolConfig as recorded for a required call and read the toolUse block", async () => {
        const recorded = interaction("converse-nonstream-one-tool-use");
        bedrock.server.handle(replayInteraction(recorded));
        const sent = recordedRequestBody(recorded);
        const output = await bedrock.model("us.amazon.nova-micro-v1:0").create({
          messages: [
            { role: "system", content: sent.system[0].text },
            { role: "user", content: sent.messages[0].content[0].text },
          ],
          tools: recordedTools(recorded),
          toolChoice: "required",
        });

        expect(request().url).toBe(recordedPath(recorded));
        expect(request().json.toolConfig).toEqual(sent.toolConfig); // tools and toolChoice {any: {}}
        expect(request().json.system).toEqual(sent.system);
        expect(request().json.messages).toEqual(sent.messages);
        expect(output.toolCalls).toEqual([
          {
            type: "tool-call",
            id: "tooluse_Mj06ft-ITJik1Otgpkc1uA",
            name: "temperature",
            args: { city: "London", date: "2022-01-01" },
          },
        ]);
        expect(output.finishReason).toBe("tool-calls");
        expect(output.usage).toEqual({
          inputTokens: 571,
          outputTokens: 22,
          totalTokens: 593,
          costUsd: expect.any(Number),
        });
      });

      it("should read Claude's reasoning with its signature before the text and the tool call", async () => {
        const recorded = interaction("converse-nonstream-claude-reasoning-and-tool-use");
        bedrock.server.handle(replayInteraction(recorded));
        const reply = readJSONFixture<any>("bedrock/converse-nonstream-claude-reasoning-and-tool-use.json");
        const output = await bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0").create({
          messages: [{ role: "user", content: "What is the largest city in the user country?" }],
          tools: [{ name: "get_user_country", inputSchema: { type: "object", properties: {} } }],
        });

        const reasoning = reply.output.message.content[0].reasoningContent.reasoningText;
        expect(output.reasoning).toBe(reasoning.text);
        expect(output.message.content).toEqual([
          { type: "reasoning", text: reasoning.text, signature: reasoning.signature },
          { type: "text", text: reply.output.message.content[1].text },
          { type: "tool-call", id: "tooluse_W9DaUFg4Tj2cRPpndqxWSg", name: "get_user_country", args: {} },
        ]);
        expect(output.usage).toMatchObject({
          inputTokens: 397,
          outputTokens: 130,
          totalTokens: 527,
          cachedInputTokens: 0,
        });
      });

      it("should leave server-side tool blocks in raw and return only the ordinary tool call", async () => {
        bedrock.server.handle(replayInteraction(interaction("converse-nonstream-server-tool-and-tool-use")));
        const output = await bedrock.model("us.amazon.nova-pro-v1:0").create({
          messages: [{ role: "user", content: "What is 1234 * 5678?" }],
          tools: [
            {
              name: "final_result",
              inputSchema: { type: "object", properties: { result: { type: "number" } }, required: ["result"] },
            },
          ],
        });

        expect(output.toolCalls).toEqual([
          { type: "tool-call", id: "tooluse_DaRsVjwcShCI_3pOsIsWqg", name: "final_result", args: { result: 7006652 } },
        ]);
        expect(JSON.stringify(output.raw)).toContain("server_tool_use");
        expect(bedrock.server.requests).toHaveLength(1); // no re-ask for an "unknown" nova_code_interpreter call
      });

      it("should stream the recorded ConverseStream text bytes as text deltas", async () => {
        const recorded = interaction("converse-stream-text");
        bedrock.server.handle(replayInteraction(recorded));
        const events = parseNDJSON(readFixture("bedrock/converse-stream-text.events.ndjson"));
        const { output, chunks } = await runCall(
          bedrock.model("us.amazon.nova-micro-v1:0"),
          { messages: [{ role: "user", content: "What is the capital of France?" }] },
          "createStream",
        );

        expect(request().url).toBe(recordedPath(recorded));
        const deltas = chunks.filter(
          (chunk): chunk is Extract<ChatModelChunk, { type: "text-delta" }> => chunk.type === "text-delta",
        );
        expect(deltas).toHaveLength(events.filter((event) => "contentBlockDelta" in event).length);
        expect(output.text).toBe(textOfEvents(events));
        expect(output.finishReason).toBe("stop");
        expect(output.usage).toEqual({
          inputTokens: 13,
          outputTokens: 82,
          totalTokens: 95,
          costUsd: expect.any(Number),
        });
      });

      it("should send the recorded tools and assemble text then a streamed toolUse block", async () => {
        const recorded = interaction("converse-stream-text-then-tool-use");
        bedrock.server.handle(replayInteraction(recorded));
        const sent = recordedRequestBody(recorded);
        const events = parseNDJSON(readFixture("bedrock/converse-stream-text-then-tool-use.events.ndjson"));
        const { output, chunks } = await runCall(
          bedrock.model("us.amazon.nova-micro-v1:0"),
          {
            messages: [
              { role: "system", content: sent.system[0].text },
              { role: "user", content: sent.messages[0].content[0].text },
            ],
            tools: recordedTools(recorded),
            parameters: { topP: 0.5 },
          },
          "createStream",
        );

        expect(request().url).toBe(recordedPath(recorded));
        expect(request().json.toolConfig.tools).toEqual(sent.toolConfig.tools);
        expect(request().json.toolConfig.toolChoice).toEqual({ auto: {} });
        expect(request().json.inferenceConfig).toEqual(sent.inferenceConfig);
        expect(chunks).toContainEqual({
          type: "tool-call-delta",
          index: 1,
          id: "tooluse_lAG_zP8QRHmSYOwZzzaCqA",
          name: "get_temperature",
        });
        expect(output.text).toBe(textOfEvents(events));
        expect(output.toolCalls).toEqual([
          { type: "tool-call", id: "tooluse_lAG_zP8QRHmSYOwZzzaCqA", name: "get_temperature", args: { city: "Paris" } },
        ]);
        expect(output.finishReason).toBe("tool-calls");
        expect(output.usage).toEqual({
          inputTokens: 471,
          outputTokens: 91,
          totalTokens: 562,
          costUsd: expect.any(Number),
        });
      });

      it("should skip streamed server-tool blocks and their results", async () => {
        bedrock.server.handle(replayInteraction(interaction("converse-stream-server-tool-and-tool-use")));
        const { output, chunks } = await runCall(
          bedrock.model("us.amazon.nova-pro-v1:0"),
          {
            messages: [{ role: "user", content: "What is 1234 * 5678?" }],
            tools: [
              {
                name: "final_result",
                inputSchema: { type: "object", properties: { result: { type: "number" } }, required: ["result"] },
              },
            ],
          },
          "createStream",
        );

        expect(
          chunks
            .filter((chunk) => chunk.type === "tool-call-delta" && chunk.name)
            .map((chunk) => (chunk as { index: number }).index),
        ).toEqual([2]);
        expect(output.toolCalls).toEqual([
          { type: "tool-call", id: "tooluse_ptgCcZ0uQu-UUMz0abqoWw", name: "final_result", args: { result: 7006652 } },
        ]);
        expect(bedrock.server.requests).toHaveLength(1);
      });

      it.each([
        ["converse-error-400-invalid-model", "create"],
        ["converse-stream-error-400-invalid-model", "createStream"],
      ] as const)("should map the recorded %s reply to a non-retryable invalid-request error", async (name, mode) => {
        const recorded = interaction(name);
        bedrock.server.handle(replayInteraction(recorded));
        const model = bedrock.model("us.does-not-exist-model-v1:0", { retry: { maxRetries: 2, initialDelayMs: 1 } });
        const error = await runCall(model, { messages: [{ role: "user", content: "hello" }] }, mode).catch(
          (caught: unknown) => caught,
        );

        expect(request().url).toBe(recordedPath(recorded));
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ statusCode: 400, reason: "invalid-request", isRetryable: false });
        expect((error as Error).message).toContain("The provided model identifier is invalid.");
        expect(bedrock.server.requests).toHaveLength(1);
      });

      it("should name the recorded 400 a ValidationException when x-amzn-ErrorType is present", async () => {
        bedrock.server.handle(
          replayInteraction(interaction("converse-error-400-invalid-model"), {
            "x-amzn-ErrorType": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
          }),
        );
        const error = await bedrock
          .model("us.does-not-exist-model-v1:0")
          .create({ messages: [{ role: "user", content: "hello" }] })
          .catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: "ValidationException",
          reason: "invalid-request",
          rejectedParameter: undefined,
        });
      });
    },
  );
});

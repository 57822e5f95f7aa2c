import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { readLocalFixture, replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";
import { callModes, runCall } from "../../support/run-modes.js";

const getUserCountry: ToolDefinition = { name: "get_user_country", inputSchema: { type: "object", properties: {} } };
const ask: Message[] = [{ role: "user", content: "What is the largest city in the user country?" }];
// Claude's redacted thinking as Converse carries it: ReasoningContentBlock's `redactedContent`
// member, a blob (base64 in the JSON body), per the SDK's types. No recording of one was found.
const redacted = {
  reasoningContent: { redactedContent: Buffer.from("encrypted-thinking-from-claude").toString("base64") },
};

describe("BedrockChatModel", () => {
  describe.skipIf(!hasSharedFixtures)(
    `Claude's reasoning across a tool loop${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`,
    () => {
      const bedrock = useBedrockLoopback();

      // Claude with thinking wants the last assistant turn back unmodified: every reasoning block, the
      // redacted ones too, each with its own signature, in the order it came.
      describe.each(callModes)("through %s", (mode) => {
        it("should send the assistant turn back with a redacted reasoning block as it came", async () => {
          const recorded = readJSONFixture<any>("bedrock/converse-nonstream-claude-reasoning-and-tool-use.json");
          const [reasoning, text, toolUse] = recorded.output.message.content;
          const content = [reasoning, redacted, text, toolUse];
          bedrock.server.handle(
            replyFor(replyOf({ ...recorded, output: { message: { role: "assistant", content } } }), mode),
            replyFor(replyOf(readLocalFixture("converse-text.json")), mode),
          );
          const model = bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0");
          const { output } = await runCall(model, { messages: ask, tools: [getUserCountry] }, mode);
          const history: Message[] = [
            ...ask,
            output.message,
            { role: "tool", toolCallId: output.toolCalls[0]!.id, toolName: "get_user_country", content: "France" },
          ];
          await runCall(model, { messages: history, tools: [getUserCountry] }, mode);

          expect(output.reasoning).toBe(reasoning.reasoningContent.reasoningText.text);
          expect(bedrock.server.requests[1]!.json.messages[1]).toEqual({ role: "assistant", content });
        });
      });
    },
  );
});

describe("BedrockChatModel: another provider's signed reasoning in the history", () => {
  const bedrock = useBedrockLoopback();

  describe.each(callModes)("through %s", (mode) => {
    it("should not send an OpenAI Responses item's encrypted reasoning as a Claude signature", async () => {
      bedrock.server.handle(replyFor(replyOf(readLocalFixture("converse-text.json")), mode));
      // The turn before came from OpenAIResponsesChatModel: its reasoning item, encrypted content kept in `signature`.
      const history: Message[] = [
        ...ask,
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "The user is in France.", id: "rs_0a1b", signature: "gAAAAB-openai-encrypted" },
            { type: "text", text: "Paris." },
          ],
        },
        { role: "user", content: "And its population?" },
      ];
      await runCall(bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"), { messages: history }, mode);
      expect(bedrock.server.requests[0]!.json.messages[1]).toEqual({
        role: "assistant",
        content: [{ text: "Paris." }],
      });
    });
  });
});

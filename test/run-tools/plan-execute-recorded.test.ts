// A plan-execute run through OpenAI's real SDK against a loopback server: the plan's reply is the
// recorded chat.completions envelope with the plan as its content (no recording holds a plan), the
// planned call runs, and the answer is the recorded reply as it came.
import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { runTools } from "../../src/index.js";
import type { Handler } from "../support/loopback-server.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../support/shared-fixtures.js";

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures
    ? "plan-execute on recorded traffic"
    : `plan-execute on recorded traffic: ${missingFixturesMessage}`,
  () => {
    const server = useLoopbackServer();

    it("should ask for the plan as a JSON-schema format, run its call, and end on the recorded answer", async () => {
      const answer = readJSONFixture<any>("openai/chat-nonstream-text.json");
      const plan = {
        reasoning: "The capital is a fact the tool knows.",
        steps: [
          { description: "Ask for England's capital", toolCall: { name: "get_capital", args: { country: "England" } } },
        ],
      };
      const planReply = structuredClone(answer);
      planReply.choices[0].message.content = JSON.stringify(plan);
      const replies: Handler[] = [
        (_request, response) => sendJSON(response, 200, planReply),
        (_request, response) => sendJSON(response, 200, answer),
      ];
      let next = 0;
      server.handle((request, response) => replies[next++]!(request, response));
      const calls: unknown[] = [];
      const run = await runTools({
        model: new OpenAIChatModel("gpt-4o-mini", {
          baseURL: `${server.url}/v1`,
          apiKey: "sk-test",
          retry: { maxRetries: 0 },
        }),
        messages: [{ role: "user", content: "What is the capital of England?" }],
        tools: [
          {
            name: "get_capital",
            inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
            execute: (args: Record<string, unknown>) => {
              calls.push(args);
              return "London";
            },
          },
        ],
        strategy: "plan-execute",
      });

      expect(run.plan).toEqual(plan);
      expect(calls).toEqual([{ country: "England" }]);
      const [planRequest, answerRequest] = server.requests.map((request) => request.json);
      expect(planRequest.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "plan" } });
      expect(answerRequest.response_format).toBeUndefined();
      expect(answerRequest.tool_choice).toBe("none");
      expect(answerRequest.messages.at(-1)).toEqual({
        role: "tool",
        tool_call_id: expect.stringMatching(/^call_/),
        content: "London",
      });
      expect(run.text).toBe(answer.choices[0].message.content);
    });
  },
);

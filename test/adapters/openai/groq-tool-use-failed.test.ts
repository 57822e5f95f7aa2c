import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { ToolCallError, defineTool } from "../../../src/index.js";
import type { ChatModelInput } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, settleCall } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";

/** The recorded Groq replies: [0] the 400 `tool_use_failed`, [1] the model's next, valid, call. */
const recorded = (name: string): [unknown, any] =>
  hasSharedFixtures
    ? [readJSONFixture(`extra/malformed/${name}.0.json`), readJSONFixture(`extra/malformed/${name}.1.json`)]
    : [{}, {}];

/** The valid reply as a stream: the recorded completion's call in two deltas, then its finish. */
function asStream(completion: any): string {
  const { message, finish_reason } = completion.choices[0];
  const [call] = message.tool_calls;
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...completion, object: "chat.completion.chunk", usage: undefined, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return (
    chunk({
      role: "assistant",
      tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
    }) +
    chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }) +
    chunk({}, finish_reason) +
    "data: [DONE]\n\n"
  );
}

const cases = [
  {
    name: "groq-400-tool-use-failed-then-valid-call",
    what: "a call that misses the schema",
    input: (): ChatModelInput => ({
      messages: [{ role: "user", content: "Call get_something_by_name." }],
      tools: [
        defineTool({
          name: "get_something_by_name",
          inputSchema: {
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
            additionalProperties: false,
          },
        }),
      ],
    }),
    expected: { name: "get_something_by_name", args: { name: "test" } },
    kind: "invalid-args",
  },
  {
    name: "groq-400-required-tool-not-called-then-valid-call",
    what: "no call where tool_choice required one",
    input: (): ChatModelInput => ({
      messages: [{ role: "user", content: "Answer with final_result." }],
      tools: [
        defineTool({
          name: "final_result",
          inputSchema: {
            type: "object",
            properties: { response: { type: "string", enum: ["yes", "no"] } },
            required: ["response"],
            additionalProperties: false,
          },
        }),
      ],
      toolChoice: "required",
    }),
    expected: { name: "final_result", args: { response: "yes" } },
    kind: "tool-choice-violation",
  },
];

describe.skipIf(!hasSharedFixtures)(
  `Groq's 400 tool_use_failed${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`,
  () => {
    const server = useLoopbackServer();
    const groq = (options = {}) =>
      new OpenAIChatModel("openai/gpt-oss-120b", {
        baseURL: `${server.url}/openai/v1`,
        apiKey: "gsk-test-tool-use-failed",
        toolChoiceSupport: ["auto", "none", "required", "single"],
        ...options,
      });

    describe.each(callModes)("through %s", (mode) => {
      it.each(cases)(
        "should re-ask $what with guidance, and return the valid call",
        async ({ name, input, expected }) => {
          const [failed, valid] = recorded(name);
          server.handle((request, response) => {
            if (server.requests.length === 1) {
              response.writeHead(400, { "content-type": "application/json" });
              response.end(JSON.stringify(failed));
            } else if (request.json?.stream) {
              response.writeHead(200, { "content-type": "text/event-stream" });
              response.end(asStream(valid));
            } else {
              response.writeHead(200, { "content-type": "application/json" });
              response.end(JSON.stringify(valid));
            }
          });
          const model = groq();
          const repairs: unknown[] = [];
          model.emitter.on("repair", (event) => repairs.push(event));
          const { output, error } = await settleCall(model, input(), mode);
          expect(error).toBeUndefined();
          expect(output?.toolCalls).toEqual([expect.objectContaining(expected)]);
          expect(server.requests).toHaveLength(2);
          expect(repairs).toHaveLength(1);
          // The re-ask carries guidance after the caller's messages; the caller's own messages are unchanged.
          const [first, second] = server.requests.map((request) => request.json.messages as unknown[]);
          expect(second!.length).toBeGreaterThan(first!.length);
          expect(output?.meta.attempts).toHaveLength(2);
        },
      );

      it.each(cases)(
        "should end in a ToolCallError ($kind) once maxRepairAttempts is spent",
        async ({ name, input, kind }) => {
          const [failed] = recorded(name);
          server.handle((_request, response) => {
            response.writeHead(400, { "content-type": "application/json" });
            response.end(JSON.stringify(failed));
          });
          const { error } = await settleCall(groq({ maxRepairAttempts: 1 }), input(), mode);
          expect(ToolCallError.isInstance(error), String(error)).toBe(true);
          expect(error).toMatchObject({ kind });
          expect(server.requests).toHaveLength(2);
        },
      );
    });
  },
);

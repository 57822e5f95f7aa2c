import assert from "node:assert/strict";
import type { ChatModel } from "../../core/model/chat-model.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import { answerToolName } from "../../core/tool-choice/resolve-tools-or-answer.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { AdapterConformanceOptions } from "./adapter-conformance-options.js";
import type { CaseDefiner } from "./case-definer.js";
import type { Mode } from "./conformance-run.js";
import { fastRetry, rejection, until, user } from "./conformance-run.js";
import type { ReplayServer, ReplayStep } from "./replay-server.js";

const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
};

const forecastSchema = {
  type: "object",
  properties: { city: { type: "string" }, summary: { type: "string" } },
  required: ["city", "summary"],
  additionalProperties: false,
};

/** The rung a model puts a call with tools and a response format on. */
function ownAnswerRung(model: ChatModel): "native" | "union" {
  if (model.supportsResponseFormatWithTools && model.supportsStructuredOutput) return "native";
  return model.toolChoiceSupport.has("required") ? "native" : "union";
}

/** The answer as a reply to the tool union: the answer's variant, wrapped where the provider wants an object root. */
function unionAnswer(model: ChatModel, answer: object): string {
  const variant = { name: answerToolName, parameters: answer };
  const wrapped = model.supportsStructuredOutput && !model.supportsTopLevelUnion;
  return JSON.stringify(wrapped ? { item: variant } : variant);
}

/**
 * The cases every adapter runs with its `textReply` and `retryableError` alone: retries and their
 * request count, aborts, the response-format rung, tools with a final answer and `clone()`.
 */
export function defineBehaviourCases<S extends ReplayServer>(
  define: CaseDefiner,
  options: AdapterConformanceOptions<S>,
  mode: Mode,
): void {
  const label = mode === "create" ? "create" : "createStream";
  const text = options.textReply("pong")[mode];
  const failures: [string, ReplayStep][] = [
    ...(options.retryableError
      ? [["the provider's retryable error", options.retryableError] as [string, ReplayStep]]
      : []),
    ["a dropped connection", "drop"],
  ];
  if (!text) define.missing("retry", `textReply gives no ${label} answer`);
  for (const [name, failure] of failures) {
    if (text) {
      define.it(
        "retry",
        `should retry a failed attempt and return the next answer (${name})`,
        async ({ server, model, call }) => {
          server.play(failure, text);
          const { output } = await call(model(fastRetry(2)), { messages: user });
          assert.equal(output.text, "pong");
          assert.equal(server.requests.length, 2, "one request per attempt");
        },
      );
    }
    define.it(
      "no-sdk-retries",
      `should send exactly maxRetries + 1 requests when every attempt fails (${name})`,
      async ({ server, model, call }) => {
        for (const maxRetries of [0, 2]) {
          server.requests.length = 0;
          server.play(failure);
          const error = await rejection(call(model(fastRetry(maxRetries)), { messages: user }));
          assert.ok(
            ProviderError.isInstance(error) && error.isRetryable,
            `expected a retryable ProviderError, got ${String(error)}`,
          );
          assert.equal(
            server.requests.length,
            maxRetries + 1,
            `maxRetries ${maxRetries}: one request per attempt, none sent by the SDK on its own`,
          );
        }
      },
    );
  }

  define.it(
    "abort",
    "should settle promptly with an AbortError when aborted during the request",
    async ({ server, model, call }) => {
      server.play("hold");
      const controller = new AbortController();
      const pending = rejection(
        call(model(), { messages: user, signal: controller.signal }),
        "the call should be aborted",
      );
      await until(() => server.requests.length === 1);
      const abortedAt = Date.now();
      controller.abort();
      const error = (await pending) as Error;
      assert.equal(error.name, "AbortError");
      assert.ok(Date.now() - abortedAt < 1000, "the call should end within a second of the abort");
    },
  );

  if (!text) {
    define.missing("abort-mid-response", `textReply gives no ${label} answer`);
    define.missing("response-format-rung", `textReply gives no ${label} answer`);
    define.missing("clone", `textReply gives no ${label} answer`);
    return;
  }

  define.it(
    "abort-mid-response",
    "should end with an AbortError, not a finish, when aborted after the answer started",
    async ({ server, model }) => {
      server.play({ ...text, stall: true });
      const controller = new AbortController();
      const input = { messages: user, signal: controller.signal };
      let outcome: unknown;
      const seen: string[] = [];
      if (mode === "create") {
        const pending = rejection(model().create(input), "the call should be aborted");
        await until(() => server.requests.length === 1);
        await new Promise((resolve) => setTimeout(resolve, 20)); // the headers and body are out; the end never comes
        controller.abort();
        outcome = await pending;
      } else {
        const iterator = model().createStream(input)[Symbol.asyncIterator]();
        const first = await iterator.next();
        assert.ok(
          !first.done && first.value.type === "text-delta",
          "the first delta should arrive before the body stalls",
        );
        controller.abort();
        try {
          // Deltas that had already arrived may still come; the stream must then fail, not finish.
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value.type);
          outcome = "completed";
        } catch (error) {
          outcome = error;
        }
      }
      assert.ok(
        outcome instanceof Error && outcome.name === "AbortError",
        `an aborted call should end with an AbortError, it ${outcome === "completed" ? `completed after [${seen.join(", ")}]` : `failed with ${String(outcome)}`}`,
      );
    },
  );

  define.it(
    "response-format-rung",
    "should force a tool through the response format when 'required' is unsupported",
    async ({ server, model, call }) => {
      const subject = model({ toolChoiceSupport: new Set(["auto", "none"]) });
      const union = { name: "get_weather", parameters: { city: "Paris" } };
      server.play(options.textReply(JSON.stringify(subject.supportsTopLevelUnion ? union : { item: union }))[mode]!);
      const { output } = await call(subject, { messages: user, tools: [weatherTool], toolChoice: "required" });
      const wire = options.readRequest(server.requests[0]!);
      assert.equal(wire.tools?.length ?? 0, 0, "no tools on the wire");
      assert.equal(wire.toolChoice, undefined, "no tool_choice on the wire");
      assert.equal(wire.responseFormat?.type, "json-schema", "a JSON-schema response format on the wire");
      assert.equal(output.meta.toolChoice, "response-format");
      assert.equal(output.toolCalls.length, 1);
      assert.equal(output.toolCalls[0]!.name, "get_weather");
      assert.deepEqual(output.toolCalls[0]!.args, { city: "Paris" });
      assert.match(output.toolCalls[0]!.id, /^call_[a-z0-9]{8}$/);
    },
  );

  define.it(
    "tools-and-answer",
    "should return the final answer as the object when tools and a response format go together",
    async ({ server, model, call }) => {
      const answer = { city: "Paris", summary: "sunny" };
      const input = { messages: user, tools: [weatherTool], responseFormat: forecastSchema };
      // The adapter's own rung: a provider that takes both gets both; one that can force a call gets
      // the answer as one more tool, forced; the rest get the tools and the answer as one union.
      const own = model({});
      const ownRung = ownAnswerRung(own);
      const ownReply = ownRung === "native" ? JSON.stringify(answer) : unionAnswer(own, answer);
      server.play(options.textReply(ownReply)[mode]!);
      const first = await call(own, input);
      const wire = options.readRequest(server.requests[0]!);
      assert.deepEqual(first.output.object, answer, "the object");
      assert.deepEqual(first.output.toolCalls, [], "no tool calls beside the answer");
      if (own.supportsResponseFormatWithTools && own.supportsStructuredOutput) {
        assert.equal(wire.tools?.length, 1, "the tool on the wire");
        assert.equal(wire.responseFormat?.type, "json-schema", "and the response format");
      } else if (ownRung === "native") {
        assert.equal(wire.tools?.length, 2, "the tool and the answer tool on the wire");
        assert.equal(wire.responseFormat, undefined, "no response format beside tools");
      } else {
        assert.equal(wire.tools?.length ?? 0, 0, "no tools beside the union response format");
        assert.match(JSON.stringify(wire.responseFormat?.schema), new RegExp(answerToolName));
      }
      // The tool-union rung, whatever the provider takes.
      server.requests.length = 0;
      const union = model({ toolChoiceSupport: new Set(["auto", "none"]), supportsResponseFormatWithTools: false });
      server.play(options.textReply(unionAnswer(union, answer))[mode]!);
      const second = await call(union, input);
      const unionWire = options.readRequest(server.requests[0]!);
      assert.equal(unionWire.tools?.length ?? 0, 0, "no tools on the union rungs");
      assert.equal(unionWire.toolChoice, undefined, "no tool_choice on the union rungs");
      assert.equal(second.output.meta.toolChoice, union.supportsStructuredOutput ? "response-format" : "prompt");
      assert.deepEqual(second.output.object, answer);
      assert.deepEqual(second.output.toolCalls, []);
    },
  );

  define.it(
    "clone",
    "should answer the same scenario from a clone() with the same request",
    async ({ server, model, call }) => {
      server.play(text);
      const original = model({ toolChoiceSupport: new Set(["auto"]), parameters: { temperature: 0.25 } });
      const copy = original.clone();
      assert.notEqual(copy, original);
      assert.equal(Object.getPrototypeOf(copy), Object.getPrototypeOf(original), "the clone is of the adapter's class");
      assert.notEqual(copy.emitter, original.emitter, "the clone has its own emitter");
      assert.deepEqual([...copy.toolChoiceSupport], [...original.toolChoiceSupport]);
      // A #private field would make this call throw: a copy made from own properties cannot carry it.
      const fromCopy = await call(copy, { messages: user });
      const fromOriginal = await call(original, { messages: user });
      assert.equal(fromCopy.output.text, "pong");
      assert.equal(fromOriginal.output.text, "pong");
      assert.equal(server.requests.length, 2);
      const [first, second] = server.requests;
      assert.equal(first!.url, second!.url, "the clone calls the same endpoint");
      assert.deepEqual(
        first!.json ?? first!.body,
        second!.json ?? second!.body,
        "the clone sends the same request body",
      );
    },
  );
}

import assert from "node:assert/strict";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ChatModelInput } from "../../core/input.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { AdapterConformanceOptions, ExpectedToolCall } from "./adapter-conformance-options.js";
import type { ConformanceCaseId } from "./conformance-cases.js";
import type { Mode, Run } from "./conformance-run.js";
import { assertToolCalls, rejection, until } from "./conformance-run.js";
import type { ReplayResponse, ReplayServer, ReplayStep } from "./replay-server.js";

/** How the cases reach the test framework: a test of a case, or a case reported as not run here. */
export interface CaseDefiner {
  it(id: ConformanceCaseId, name: string, body: (run: Run) => Promise<void>): void;
  /** A case with nothing to run in this mode (no recording, no reply): reported as skipped. */
  missing(id: ConformanceCaseId, why: string): void;
}

const user = [{ role: "user" as const, content: "conformance" }];
const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};
const fastRetry = (maxRetries: number) => ({ retry: { maxRetries, initialDelayMs: 1, maxDelayMs: 1 } });

export function defineConformanceCases<S extends ReplayServer>(define: CaseDefiner, options: AdapterConformanceOptions<S>, mode: Mode): void {
  const { scenarios } = options;
  const label = mode === "create" ? "create" : "createStream";
  const noRecording = `no ${label} recording given in this run`;
  const inMode = <T extends { reply: { create?: ReplayResponse; stream?: ReplayResponse } }>(cases: readonly T[] | undefined) =>
    (cases ?? []).flatMap((entry) => (entry.reply[mode] ? [{ ...entry, answer: entry.reply[mode] }] : []));

  const texts = inMode(scenarios.text);
  if (texts.length === 0) define.missing("text", noRecording);
  for (const text of texts) {
    define.it("text", `should return the recorded text, finish reason and usage (${text.name})`, async ({ server, model, call }) => {
      server.play(text.answer);
      const { output, chunks } = await call(model(), { messages: user });
      assert.equal(output.text, text.expected.text);
      assert.equal(output.finishReason, text.expected.finishReason ?? "stop");
      assert.deepEqual(output.toolCalls, []);
      for (const [key, value] of Object.entries(text.expected.usage ?? {})) {
        assert.equal(output.usage[key as keyof typeof output.usage], value, `usage.${key}`);
      }
      assert.equal(server.requests.length, 1);
      if (mode === "stream") {
        const deltas = chunks.filter((chunk) => chunk.type === "text-delta");
        assert.ok(deltas.length >= 2, `the text should arrive in several deltas, got ${deltas.length}`);
        assert.equal(deltas.map((chunk) => chunk.text).join(""), text.expected.text);
      }
    });
  }

  const toolCalls = inMode(scenarios.toolCall);
  if (toolCalls.length === 0) define.missing("tool-call", noRecording);
  for (const toolCall of toolCalls) {
    define.it("tool-call", `should return one tool call with parsed arguments (${toolCall.name})`, async ({ server, model, call }) => {
      server.play(toolCall.answer);
      const { output } = await call(model(), { messages: user, tools: toolCall.tools });
      assert.ok((options.readRequest(server.requests[0]!).tools?.length ?? 0) > 0, "the tools should be sent");
      assertToolCalls(output, [toolCall.expected]);
      assert.equal(output.finishReason, "tool-calls");
    });
  }

  const parallels = inMode(scenarios.parallelToolCalls);
  if (parallels.length === 0) define.missing("parallel-tool-calls", noRecording);
  for (const parallel of parallels) {
    define.it("parallel-tool-calls", `should return parallel tool calls in order, each with its own id (${parallel.name})`, async ({ server, model, call }) => {
      server.play(parallel.answer);
      const { output } = await call(model(), { messages: user, tools: parallel.tools, parallelToolCalls: true });
      const flag = options.readRequest(server.requests[0]!).parallelToolCalls;
      if (flag !== undefined) assert.equal(flag, true, "parallel tool calls should be allowed on the wire");
      assertToolCalls(output, parallel.expected);
    });
  }

  const split = mode === "stream" ? scenarios.streamedToolCallArgs : undefined;
  if (mode === "stream" && !split) define.missing("streamed-tool-call-args", noRecording);
  if (split) {
    define.it("streamed-tool-call-args", "should stream tool-call arguments split across chunks and merge them", async ({ server, model, call }) => {
      server.play(split.reply);
      const { output, chunks } = await call(model(), { messages: user, tools: split.tools });
      const pieces = chunks.flatMap((chunk) => (chunk.type === "tool-call-delta" && chunk.argsDelta ? [chunk.argsDelta] : []));
      assert.ok(pieces.length >= 2, `the arguments should arrive in several deltas, got ${pieces.length}`);
      assert.deepEqual(JSON.parse(pieces.join("")), split.expected.args);
      const firstDelta = chunks.findIndex((chunk) => chunk.type === "tool-call-delta");
      const whole = chunks.findIndex((chunk) => chunk.type === "tool-call");
      assert.ok(firstDelta >= 0 && firstDelta < whole, "deltas should reach the caller before the validated call");
      assertToolCalls(output, [split.expected]);
    });
  }

  // Every recorded call of this mode, with the id the provider gave it.
  const withIds: { name: string; answer: ReplayResponse; tools: ToolDefinition[]; expected: readonly ExpectedToolCall[] }[] = [
    ...toolCalls.map((entry) => ({ ...entry, expected: [entry.expected] })),
    ...parallels,
    ...(split ? [{ name: "split arguments", answer: split.reply, tools: split.tools, expected: [split.expected] }] : []),
  ];
  if (withIds.length === 0) define.missing("tool-call-ids", noRecording);
  for (const recorded of withIds) {
    define.it("tool-call-ids", `should keep the provider's tool-call ids (${recorded.name})`, async ({ server, model, call }) => {
      server.play(recorded.answer);
      const { output } = await call(model(), { messages: user, tools: recorded.tools, parallelToolCalls: true });
      assert.deepEqual(
        output.toolCalls.map((toolCall) => toolCall.id),
        recorded.expected.map((toolCall) => toolCall.id),
      );
    });
  }

  const finishes = inMode(scenarios.finishReasons);
  if (finishes.length === 0) define.missing("finish-reasons", noRecording);
  for (const finish of finishes) {
    define.it("finish-reasons", `should map the finish reason (${finish.name} → ${finish.expected})`, async ({ server, model, call }) => {
      server.play(finish.answer);
      const input: ChatModelInput = finish.tools ? { messages: user, tools: finish.tools } : { messages: user };
      const { output } = await call(model({ retryOnEmptyResponse: false }), input);
      assert.equal(output.finishReason, finish.expected);
    });
  }

  if (!scenarios.errors?.length) define.missing("errors", "no error recording given in this run");
  for (const failure of scenarios.errors ?? []) {
    define.it("errors", `should raise a ProviderError for ${failure.name}`, async ({ server, model, call }) => {
      server.play(failure.reply);
      const error = await rejection(call(model(fastRetry(0)), { messages: user }));
      assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
      const { statusCode, reason, isRetryable, code } = failure.expected;
      if (statusCode !== undefined) assert.equal(error.statusCode, statusCode);
      assert.equal(error.reason, reason);
      assert.equal(error.isRetryable, isRetryable);
      if (code !== undefined) assert.equal(error.code, code);
      assert.ok(error.cause instanceof Error && !ProviderError.isInstance(error.cause), "the SDK's error should be the cause");
      assert.equal(server.requests.length, 1);
    });
  }

  const text = options.textReply("pong")[mode];
  const failures: [string, ReplayStep][] = [
    ...(options.retryableError ? [["the provider's retryable error", options.retryableError] as [string, ReplayStep]] : []),
    ["a dropped connection", "drop"],
  ];
  if (!text) define.missing("retry", `textReply gives no ${label} answer`);
  for (const [name, failure] of failures) {
    if (text) {
      define.it("retry", `should retry a failed attempt and return the next answer (${name})`, async ({ server, model, call }) => {
        server.play(failure, text);
        const { output } = await call(model(fastRetry(2)), { messages: user });
        assert.equal(output.text, "pong");
        assert.equal(server.requests.length, 2, "one request per attempt");
      });
    }
    define.it("no-sdk-retries", `should send exactly maxRetries + 1 requests when every attempt fails (${name})`, async ({ server, model, call }) => {
      for (const maxRetries of [0, 2]) {
        server.requests.length = 0;
        server.play(failure);
        const error = await rejection(call(model(fastRetry(maxRetries)), { messages: user }));
        assert.ok(ProviderError.isInstance(error) && error.isRetryable, `expected a retryable ProviderError, got ${String(error)}`);
        assert.equal(server.requests.length, maxRetries + 1, `maxRetries ${maxRetries}: one request per attempt, none sent by the SDK on its own`);
      }
    });
  }

  define.it("abort", "should settle promptly with an AbortError when aborted during the request", async ({ server, model, call }) => {
    server.play("hold");
    const controller = new AbortController();
    const pending = rejection(call(model(), { messages: user, signal: controller.signal }), "the call should be aborted");
    await until(() => server.requests.length === 1);
    const abortedAt = Date.now();
    controller.abort();
    const error = (await pending) as Error;
    assert.equal(error.name, "AbortError");
    assert.ok(Date.now() - abortedAt < 1000, "the call should end within a second of the abort");
  });

  if (!text) {
    define.missing("abort-mid-response", `textReply gives no ${label} answer`);
    define.missing("response-format-rung", `textReply gives no ${label} answer`);
    define.missing("clone", `textReply gives no ${label} answer`);
    return;
  }

  define.it("abort-mid-response", "should end with an AbortError, not a finish, when aborted after the answer started", async ({ server, model }) => {
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
      assert.ok(!first.done && first.value.type === "text-delta", "the first delta should arrive before the body stalls");
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
  });

  define.it("response-format-rung", "should force a tool through the response format when 'required' is unsupported", async ({ server, model, call }) => {
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
  });

  define.it("clone", "should answer the same scenario from a clone() with the same request", async ({ server, model, call }) => {
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
    assert.deepEqual(first!.json ?? first!.body, second!.json ?? second!.body, "the clone sends the same request body");
  });
}

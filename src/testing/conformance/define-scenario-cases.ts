import assert from "node:assert/strict";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ChatModelInput } from "../../core/input.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { AdapterConformanceOptions, ExpectedToolCall } from "./adapter-conformance-options.js";
import type { CaseDefiner } from "./case-definer.js";
import type { Mode } from "./conformance-run.js";
import { assertToolCalls, fastRetry, rejection, user } from "./conformance-run.js";
import type { ReplayResponse, ReplayServer } from "./replay-server.js";

/** The cases that replay the adapter's recordings (`scenarios`), reported as skipped where a mode has none. */
export function defineScenarioCases<S extends ReplayServer>(
  define: CaseDefiner,
  options: AdapterConformanceOptions<S>,
  mode: Mode,
): void {
  const { scenarios } = options;
  const label = mode === "create" ? "create" : "createStream";
  const noRecording = `no ${label} recording given in this run`;
  const inMode = <T extends { reply: { create?: ReplayResponse; stream?: ReplayResponse } }>(
    cases: readonly T[] | undefined,
  ) => (cases ?? []).flatMap((entry) => (entry.reply[mode] ? [{ ...entry, answer: entry.reply[mode] }] : []));

  const texts = inMode(scenarios.text);
  if (texts.length === 0) define.missing("text", noRecording);
  for (const text of texts) {
    define.it(
      "text",
      `should return the recorded text, finish reason and usage (${text.name})`,
      async ({ server, model, call }) => {
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
      },
    );
  }

  const toolCalls = inMode(scenarios.toolCall);
  if (toolCalls.length === 0) define.missing("tool-call", noRecording);
  for (const toolCall of toolCalls) {
    define.it(
      "tool-call",
      `should return one tool call with parsed arguments (${toolCall.name})`,
      async ({ server, model, call }) => {
        server.play(toolCall.answer);
        const { output } = await call(model(), { messages: user, tools: toolCall.tools });
        assert.ok((options.readRequest(server.requests[0]!).tools?.length ?? 0) > 0, "the tools should be sent");
        assertToolCalls(output, [toolCall.expected]);
        assert.equal(output.finishReason, "tool-calls");
      },
    );
  }

  const parallels = inMode(scenarios.parallelToolCalls);
  if (parallels.length === 0) define.missing("parallel-tool-calls", noRecording);
  for (const parallel of parallels) {
    define.it(
      "parallel-tool-calls",
      `should return parallel tool calls in order, each with its own id (${parallel.name})`,
      async ({ server, model, call }) => {
        server.play(parallel.answer);
        const { output } = await call(model(), { messages: user, tools: parallel.tools, parallelToolCalls: true });
        const flag = options.readRequest(server.requests[0]!).parallelToolCalls;
        if (flag !== undefined) assert.equal(flag, true, "parallel tool calls should be allowed on the wire");
        assertToolCalls(output, parallel.expected);
      },
    );
  }

  const split = mode === "stream" ? scenarios.streamedToolCallArgs : undefined;
  if (mode === "stream" && !split) define.missing("streamed-tool-call-args", noRecording);
  if (split) {
    define.it(
      "streamed-tool-call-args",
      "should stream tool-call arguments split across chunks and merge them",
      async ({ server, model, call }) => {
        server.play(split.reply);
        const { output, chunks } = await call(model(), { messages: user, tools: split.tools });
        const pieces = chunks.flatMap((chunk) =>
          chunk.type === "tool-call-delta" && chunk.argsDelta ? [chunk.argsDelta] : [],
        );
        assert.ok(pieces.length >= 2, `the arguments should arrive in several deltas, got ${pieces.length}`);
        assert.deepEqual(JSON.parse(pieces.join("")), split.expected.args);
        const firstDelta = chunks.findIndex((chunk) => chunk.type === "tool-call-delta");
        const whole = chunks.findIndex((chunk) => chunk.type === "tool-call");
        assert.ok(firstDelta >= 0 && firstDelta < whole, "deltas should reach the caller before the validated call");
        assertToolCalls(output, [split.expected]);
      },
    );
  }

  // Every recorded call of this mode, with the id the provider gave it.
  const withIds: {
    name: string;
    answer: ReplayResponse;
    tools: ToolDefinition[];
    expected: readonly ExpectedToolCall[];
  }[] = [
    ...toolCalls.map((entry) => ({ ...entry, expected: [entry.expected] })),
    ...parallels,
    ...(split
      ? [{ name: "split arguments", answer: split.reply, tools: split.tools, expected: [split.expected] }]
      : []),
  ];
  if (withIds.length === 0) define.missing("tool-call-ids", noRecording);
  for (const recorded of withIds) {
    define.it(
      "tool-call-ids",
      `should keep the provider's tool-call ids (${recorded.name})`,
      async ({ server, model, call }) => {
        server.play(recorded.answer);
        const { output } = await call(model(), { messages: user, tools: recorded.tools, parallelToolCalls: true });
        assert.deepEqual(
          output.toolCalls.map((toolCall) => toolCall.id),
          recorded.expected.map((toolCall) => toolCall.id),
        );
      },
    );
  }

  const finishes = inMode(scenarios.finishReasons);
  if (finishes.length === 0) define.missing("finish-reasons", noRecording);
  for (const finish of finishes) {
    define.it(
      "finish-reasons",
      `should map the finish reason (${finish.name} → ${finish.expected})`,
      async ({ server, model, call }) => {
        server.play(finish.answer);
        const input: ChatModelInput = finish.tools ? { messages: user, tools: finish.tools } : { messages: user };
        const { output } = await call(model({ retryOnEmptyResponse: false }), input);
        assert.equal(output.finishReason, finish.expected);
      },
    );
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
      assert.ok(
        error.cause instanceof Error && !ProviderError.isInstance(error.cause),
        "the SDK's error should be the cause",
      );
      assert.equal(server.requests.length, 1);
    });
  }
}

import type { AdapterConformanceOptions, ConformanceTestAPI } from "./adapter-conformance-options.js";
import type { ConformanceCaseId } from "./conformance-cases.js";
import { conformanceCases } from "./conformance-cases.js";
import type { Mode } from "./conformance-run.js";
import { withRun } from "./conformance-run.js";
import type { CaseDefiner } from "./case-definer.js";
import { defineBehaviourCases } from "./define-behaviour-cases.js";
import { defineScenarioCases } from "./define-scenario-cases.js";
import type { ReplayServer } from "./replay-server.js";

/**
 * The adapter conformance suite: one set of behaviours every keelson adapter must show (see
 * `conformanceCases`), run against a loopback server that replays the provider's recorded
 * answers, through both `create` and `createStream`. It asserts with `node:assert`, so it runs
 * under any framework that gives `describe` and `it` (vitest, jest, mocha, node:test).
 *
 * Nothing passes by default: a case the adapter cannot have is declared in `skip` with its reason,
 * and a scenario without a recording in this run, like a skipped case, is reported through
 * `it.skip` with the reason, so the test report shows what was not checked.
 *
 * To run it on your own adapter:
 * 1. `createModel(baseURL, options)` builds your adapter sending every request to `baseURL` (a
 *    fresh server per test), with the common options passed through; and it must not retry on its
 *    own (the suite counts requests): turn your SDK's retries off.
 * 2. `textReply(text)` is your provider's answer carrying `text` (used by the retry, abort, clone
 *    and response-format cases; its stream should carry the text in several deltas);
 *    `readRequest` says where your wire format puts tools, tool_choice and the response format;
 *    `retryableError` is a retryable error that asks for no wait.
 * 3. `scenarios` hold your recorded answers, each body served exactly as recorded; every expected
 *    tool call names the provider's id (or skip `"tool-call-ids"`).
 * 4. If your client speaks HTTP/2, pass `server: () => startReplayServer({ protocol: "http2" })`;
 *    for another transport, a `server` factory returning your own `ReplayServer`.
 * 5. Declare in `skip` what your provider cannot do, e.g. `"tool-call-ids"` when it gives no ids.
 *
 * @example
 * ```ts
 * import { describe, it } from "vitest"; // or jest's globals, or "node:test"
 * import { runAdapterConformance } from "keelson/testing";
 *
 * runAdapterConformance({ describe, it }, {
 *   name: "MyChatModel",
 *   createModel: (baseURL, options) => new MyChatModel("my-model", { baseURL, apiKey: "test", maxRetries: 0, ...options }),
 *   textReply: (text) => ({ create: { body: JSON.stringify(myProviderReplyWith(text)) }, stream: { body: sseOf(text) } }),
 *   readRequest: (request) => {
 *     const body = request.json as MyRequestBody; // the parsed JSON body, typed `unknown`
 *     return { tools: body.tools, toolChoice: body.tool_choice, responseFormat: myFormatOf(body) };
 *   },
 *   retryableError: { status: 429, headers: { "retry-after": "0" }, body: "{}" },
 *   skip: { "streamed-tool-call-args": "My provider sends each tool call whole, in one event." },
 *   scenarios: {
 *     text: [{ name: "hello", reply: { create: { body: recordedJSON }, stream: { body: recordedSSE } }, expected: { text: "…" } }],
 *   },
 * });
 * ```
 */
export function runAdapterConformance<S extends ReplayServer = ReplayServer>(
  test: ConformanceTestAPI,
  options: AdapterConformanceOptions<S>,
): void {
  const skip = checkSkips(options);
  test.describe(options.name, () => {
    for (const mode of options.modes ?? ["create", "stream"]) {
      test.describe(mode === "create" ? "create" : "createStream", () => {
        const report = (id: ConformanceCaseId, why: string) =>
          reportSkipped(test, `${conformanceCases[id]} — skipped: ${skip[id] ?? why}`);
        const reported = new Set<ConformanceCaseId>();
        const define: CaseDefiner = {
          it: (id, name, body) => {
            if (skip[id] === undefined) test.it(name, () => withRun(options, mode as Mode, body));
            else if (!reported.has(id)) report(id, "");
            reported.add(id);
          },
          missing: (id, why) => {
            if (!reported.has(id)) report(id, why);
            reported.add(id);
          },
        };
        defineScenarioCases(define, options, mode);
        defineBehaviourCases(define, options, mode);
      });
    }
  });
}

/** The adapter's skips, checked: known ids, a reason each, and no recordings given for them. */
function checkSkips<S extends ReplayServer>(
  options: AdapterConformanceOptions<S>,
): Partial<Record<ConformanceCaseId, string>> {
  const skip = options.skip ?? {};
  const { scenarios } = options;
  const recorded: Partial<Record<ConformanceCaseId, boolean>> = {
    text: Boolean(scenarios.text?.length),
    "tool-call": Boolean(scenarios.toolCall?.length),
    "parallel-tool-calls": Boolean(scenarios.parallelToolCalls?.length),
    "streamed-tool-call-args": scenarios.streamedToolCallArgs !== undefined,
    "finish-reasons": Boolean(scenarios.finishReasons?.length),
    errors: Boolean(scenarios.errors?.length),
  };
  for (const [id, reason] of Object.entries(skip)) {
    if (!(id in conformanceCases)) {
      throw new TypeError(
        `runAdapterConformance: unknown case '${id}' in skip; the cases are ${Object.keys(conformanceCases).join(", ")}.`,
      );
    }
    if (typeof reason !== "string" || reason.trim() === "") {
      throw new TypeError(
        `runAdapterConformance: skip['${id}'] needs a reason (a non-empty string) saying why the adapter cannot have it.`,
      );
    }
    if (recorded[id as ConformanceCaseId]) {
      throw new TypeError(
        `runAdapterConformance: '${id}' is skipped but has recordings in scenarios; drop one or the other.`,
      );
    }
  }
  if (skip["tool-call-ids"] === undefined) {
    const calls = [
      ...(scenarios.toolCall ?? []).map((entry) => entry.expected),
      ...(scenarios.parallelToolCalls ?? []).flatMap((entry) => entry.expected),
      ...(scenarios.streamedToolCallArgs ? [scenarios.streamedToolCallArgs.expected] : []),
    ];
    const withoutId = calls.find((call) => call.id === undefined);
    if (withoutId) {
      throw new TypeError(
        `runAdapterConformance: the expected call to '${withoutId.name}' has no id. Give the provider's id, ` +
          `or skip 'tool-call-ids' with the reason if the provider gives none.`,
      );
    }
  }
  return skip;
}

function reportSkipped(test: ConformanceTestAPI, name: string): void {
  const body = () => Promise.resolve();
  if (test.it.skip) test.it.skip(name, body);
  else test.it(`[skipped] ${name}`, body);
}

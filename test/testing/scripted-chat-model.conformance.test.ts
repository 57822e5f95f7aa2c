import { describe, it } from "vitest";
import { ProviderError } from "../../src/index.js";
import type { ChatModelOptions, ProviderInput, RunContext } from "../../src/index.js";
import type {
  ConformanceReply,
  ReplayedRequest,
  ReplayServer,
  ReplayStep,
  ScriptedStep,
} from "../../src/testing/index.js";
import {
  ScriptedChatModel,
  errorStep,
  runAdapterConformance,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "../../src/testing/index.js";

/**
 * The scripted model's "wire": an in-process transport. A request is the ProviderInput that
 * reached the model; a replayed body is the JSON of the scripted step that answers it.
 */
class ScriptedTransport implements ReplayServer {
  readonly url = "scripted://in-process";
  readonly requests: ReplayedRequest[] = [];
  private steps: ReplayStep[] = [{ status: 500, body: "no reply scripted" }];

  play(...steps: ReplayStep[]): void {
    this.steps = steps;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** A model whose every request is answered by this transport. */
  model(options: ChatModelOptions): ScriptedChatModel {
    const steps = Array.from(
      { length: 64 },
      () => (input: ProviderInput, context: RunContext) => this.answer(input, context),
    );
    return new ScriptedChatModel(steps, options);
  }

  private answer(input: ProviderInput, context: RunContext): ScriptedStep | Promise<ScriptedStep> {
    const { signal: _signal, ...sent } = input;
    const body = JSON.stringify(sent);
    this.requests.push({ method: "POST", url: "/", headers: {}, body, json: JSON.parse(body) });
    const step = this.steps.length > 1 ? this.steps.shift()! : this.steps[0]!;
    if (step === "hold") {
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true }),
      );
    }
    if (step === "drop") {
      return errorStep(
        new ProviderError("scripted: connection dropped", {
          reason: "network",
          providerId: "scripted",
          modelId: "scripted",
          cause: new Error("socket hang up"),
        }),
      );
    }
    const text = typeof step.body === "string" ? step.body : "";
    if ((step.status ?? 200) >= 400) {
      return errorStep({ statusCode: step.status!, message: text, ...(step.headers ? { headers: step.headers } : {}) });
    }
    return JSON.parse(text) as ScriptedStep;
  }
}

const reply = (create: ScriptedStep, stream: ScriptedStep = create): ConformanceReply => ({
  create: { body: JSON.stringify(create) },
  stream: { body: JSON.stringify(stream) },
});
const lookupIncident = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};

runAdapterConformance<ScriptedTransport>(
  { describe, it },
  {
    name: "ScriptedChatModel conformance (in-process transport)",
    server: () => Promise.resolve(new ScriptedTransport()),
    createModel: (_url, options, transport) => transport.model(options),
    textReply: (text) => {
      const half = Math.ceil(text.length / 2);
      return reply(textStep(text), textStep(text, { chunks: [text.slice(0, half), text.slice(half)] }));
    },
    readRequest: (request) => {
      const sent = request.json as Pick<ProviderInput, "tools" | "toolChoice" | "responseFormat" | "parallelToolCalls">;
      const format = sent.responseFormat;
      return {
        tools: sent.tools,
        toolChoice: sent.toolChoice,
        parallelToolCalls: sent.parallelToolCalls,
        responseFormat:
          format === undefined
            ? undefined
            : format.type === "json"
              ? { type: "json" }
              : { type: "json-schema", schema: format.schema },
      };
    },
    retryableError: { status: 429, headers: { "retry-after": "0" }, body: "scripted rate limit" },
    skip: {
      "abort-mid-response":
        "ScriptedChatModel plays a step whole: it has no answer that can stall halfway (an abort while it waits is run by the 'abort' case).",
      errors:
        "ScriptedChatModel raises the ProviderError its script describes: it has no SDK, so no SDK error to keep as the cause (its status mapping is run by the retry cases).",
    },
    scenarios: {
      text: [
        {
          name: "words",
          reply: reply(textStep("INC-001 is an outage of auth-api.", { usage: { inputTokens: 21, outputTokens: 9 } })),
          expected: {
            text: "INC-001 is an outage of auth-api.",
            usage: { inputTokens: 21, outputTokens: 9, totalTokens: 30 },
          },
        },
      ],
      toolCall: [
        {
          name: "lookup_incident",
          reply: reply(toolCallStep("lookup_incident", { incident_id: "INC-001" }, { id: "call_scripted_1" })),
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_scripted_1" },
        },
      ],
      parallelToolCalls: [
        {
          name: "lookup_incident and page_on_call",
          reply: reply(
            toolCallsStep([
              { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_scripted_a" },
              { name: "page_on_call", args: { team: "auth" }, id: "call_scripted_b" },
            ]),
          ),
          tools: [lookupIncident, pageOnCall],
          expected: [
            { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_scripted_a" },
            { name: "page_on_call", args: { team: "auth" }, id: "call_scripted_b" },
          ],
        },
      ],
      streamedToolCallArgs: {
        reply: reply(toolCallStep("lookup_incident", { incident_id: "INC-002" }, { id: "call_scripted_split" }))
          .stream!,
        tools: [lookupIncident],
        expected: { name: "lookup_incident", args: { incident_id: "INC-002" }, id: "call_scripted_split" },
      },
      finishReasons: [
        { name: "length", reply: reply(textStep("Once upon a", { finishReason: "length" })), expected: "length" },
        {
          name: "tool calls",
          reply: reply(toolCallStep("lookup_incident", { incident_id: "INC-001" }, { id: "call_x" })),
          tools: [lookupIncident],
          expected: "tool-calls",
        },
      ],
    },
  },
);

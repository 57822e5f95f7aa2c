import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { AuthorizeContext, Message, RunStep, ToolDefinition, ToolExecuteContext } from "../../src/index.js";
import { ChatModelError, ProviderError, RunError, defineTool, streamTools } from "../../src/index.js";
import {
  ScriptedChatModel,
  errorStep,
  streamStep,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "../../src/testing/index.js";
import { runErrorIn, runIn, runModes } from "../support/run-tools-modes.js";

const incidents: Record<string, { service: string; status: string }> = {
  "INC-001": { service: "auth-api", status: "outage since 09:12 UTC" },
};

type Execute = NonNullable<ToolDefinition["execute"]>;

function lookupTool(execute: Execute = (args) => lookup(String(args.incident_id))) {
  return defineTool({
    name: "lookup_incident",
    description: "Look up an incident by its id.",
    inputSchema: z.object({ incident_id: z.string() }),
    execute,
  });
}

function lookup(id: string) {
  return incidents[id] ?? `incident ${id} not found`;
}

const question = (): Message[] => [
  { role: "system", content: "You are an on-call assistant." },
  { role: "user", content: "What is going on with INC-001?" },
];

describe.each(runModes)("%s", (mode) => {
  it("should execute the requested tool, send its result back and end on the answer", async () => {
    const execute = vi.fn((args: Record<string, unknown>, _context: ToolExecuteContext) =>
      lookup(String(args.incident_id)),
    );
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }, { id: "call_1" }),
      textStep("INC-001 is an auth-api outage.", { usage: { inputTokens: 30, outputTokens: 7 } }),
    ]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool(execute)] });

    expect(run.text).toBe("INC-001 is an auth-api outage.");
    expect(run.toolCalls).toEqual([]);
    expect(execute).toHaveBeenCalledTimes(1);
    const [args, context] = execute.mock.calls[0]!;
    expect(args).toEqual({ incident_id: "INC-001" });
    expect(context.toolCall).toEqual({
      type: "tool-call",
      id: "call_1",
      name: "lookup_incident",
      args: { incident_id: "INC-001" },
    });
    expect(context.signal).toBeInstanceOf(AbortSignal);
    const result = JSON.stringify(incidents["INC-001"]);
    expect(run.messages).toEqual([
      ...question(),
      {
        role: "assistant",
        content: [{ type: "tool-call", id: "call_1", name: "lookup_incident", args: { incident_id: "INC-001" } }],
      },
      { role: "tool", toolCallId: "call_1", toolName: "lookup_incident", content: result },
      { role: "assistant", content: "INC-001 is an auth-api outage." },
    ]);
    // What the provider was sent on the second call: the whole transcript so far.
    expect(model.calls[1]!.messages).toEqual(run.messages.slice(0, 4));
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0]!.toolResults).toEqual([
      {
        toolCall: context.toolCall,
        executionId: `${run.runId}:step-0:call-0`,
        result: incidents["INC-001"],
        message: run.messages[3],
        durationMs: expect.any(Number),
      },
    ]);
    expect(context.executionId).toBe(`${run.runId}:step-0:call-0`);
    expect(run.status).toBe("done");
    expect(run.pendingApprovals).toEqual([]);
    expect(run.steps[1]!.toolResults).toEqual([]);
    expect(run.steps.map((step) => step.stepIndex)).toEqual([0, 1]);
    expect(run.steps[0]!.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(run.usage).toEqual({ inputTokens: 40, outputTokens: 12, totalTokens: 52 });
    expect(run.output).toBe(run.steps[1]!.output);
    for (const step of run.steps) expect(step.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("should send a business result such as 'not found' back to the model as the tool message", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-999" }),
      textStep("I could not find INC-999; check the id."),
    ]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool()] });

    expect(run.messages[3]).toMatchObject({ role: "tool", content: "incident INC-999 not found" });
    expect(run.steps[0]!.toolResults[0]).not.toHaveProperty("error");
    expect(run.text).toBe("I could not find INC-999; check the id.");
  });

  it("should send a tool's error back as an error result the model can recover from, by default", async () => {
    const failure = new Error("the incident database is unreachable");
    const seen: RunStep[] = [];
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep("The incident database is down; try again later."),
    ]);
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [
        lookupTool(() => {
          throw failure;
        }),
      ],
      onStep: (step) => void seen.push(step),
    });

    const sent = model.calls[1]!.messages.at(-1);
    expect(sent).toMatchObject({ role: "tool", toolName: "lookup_incident" });
    expect((sent as { content: string }).content).toBe(
      "Error: the tool 'lookup_incident' failed: the incident database is unreachable",
    );
    expect(seen[0]!.toolResults[0]!.error).toBe(failure);
    expect(seen[0]!.toolResults[0]).not.toHaveProperty("result");
    expect(run.text).toBe("The incident database is down; try again later.");
  });

  it("should end the run with RunError reason tool-error when toolErrors is 'throw'", async () => {
    const failure = new Error("boom");
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" })]);
    const error = await runErrorIn(mode, {
      model,
      messages: question(),
      tools: [
        lookupTool(async () => {
          throw failure;
        }),
      ],
      toolErrors: "throw",
    });

    expect(error.reason).toBe("tool-error");
    expect(error.cause).toBe(failure);
    expect(error.toolCall?.name).toBe("lookup_incident");
    expect(error.message).toContain("'lookup_incident' threw at step 1");
    // The turn that failed is left out: what remains is a conversation to retry from.
    expect(error.messages).toEqual(question());
    expect(error.steps).toEqual([]);
    expect(RunError.isInstance(error) && ChatModelError.isInstance(error)).toBe(true);
  });

  it("should keep the whole assistant message, reasoning with its signature and text, then the tool message", async () => {
    const model = new ScriptedChatModel([
      streamStep([
        { type: "reasoning-delta", text: "The user wants INC-001." },
        { type: "reasoning-delta", text: "", signature: "sig-abc" },
        { type: "text-delta", text: "Let me look it up." },
        { type: "tool-call-delta", index: 0, id: "call_r", name: "lookup_incident", argsDelta: '{"incident_id":' },
        { type: "tool-call-delta", index: 0, argsDelta: '"INC-001"}' },
        { type: "finish", finishReason: "tool-calls" },
      ]),
      textStep("An auth-api outage."),
    ]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool()] });

    const assistant = {
      role: "assistant",
      content: [
        { type: "reasoning", text: "The user wants INC-001.", signature: "sig-abc" },
        { type: "text", text: "Let me look it up." },
        { type: "tool-call", id: "call_r", name: "lookup_incident", args: { incident_id: "INC-001" } },
      ],
    };
    expect(run.messages[2]).toEqual(assistant);
    expect(model.calls[1]!.messages[2]).toEqual(assistant);
    expect(model.calls[1]!.messages[3]).toMatchObject({ role: "tool", toolCallId: "call_r" });
  });

  it("should send one tool message per call in call order, at most `concurrency` tools at once", async () => {
    let running = 0;
    let most = 0;
    const delays: Record<string, number> = { a: 30, b: 1, c: 20, d: 5, e: 1 };
    const slow = defineTool({
      name: "slow",
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, delays[String(id)]));
        running--;
        return `done ${String(id)}`;
      },
    });
    const ids = ["a", "b", "c", "d", "e"];
    const model = new ScriptedChatModel(
      [toolCallsStep(ids.map((id) => ({ name: "slow", args: { id }, id: `call_${id}` }))), textStep("All done.")],
      { allowParallelToolCalls: true },
    );
    const { run } = await runIn(mode, { model, messages: question(), tools: [slow], concurrency: 2 });

    expect(most).toBe(2);
    const toolMessages = run.messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => [message.toolCallId, message.content])).toEqual(
      ids.map((id) => [`call_${id}`, `done ${id}`]),
    );
    expect(run.steps[0]!.toolResults.map((result) => result.toolCall.id)).toEqual(ids.map((id) => `call_${id}`));
  });

  it("should run up to 4 tools at once by default", async () => {
    let running = 0;
    let most = 0;
    const tool = defineTool({
      name: "wait",
      inputSchema: z.object({ n: z.number() }),
      execute: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return "ok";
      },
    });
    const model = new ScriptedChatModel(
      [toolCallsStep([1, 2, 3, 4, 5, 6].map((n) => ({ name: "wait", args: { n } }))), textStep("ok")],
      { allowParallelToolCalls: true },
    );
    await runIn(mode, { model, messages: question(), tools: [tool] });
    expect(most).toBe(4);
  });

  it("should execute only validated calls: an unknown tool or invalid arguments are re-asked by the model layer", async () => {
    const execute = vi.fn((args: Record<string, unknown>) => lookup(String(args.incident_id)));
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incidents", { incident_id: "INC-001" }),
      toolCallStep("lookup_incident", { incident_id: 1 }),
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep("An auth-api outage."),
    ]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool(execute)] });

    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual({ incident_id: "INC-001" });
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0]!.output.meta.attempts).toHaveLength(3);
    // The re-asking guidance never reaches the transcript.
    expect(run.messages).toHaveLength(question().length + 3);
  });

  it("should send a refusal from authorize back as the tool's result without running the tool", async () => {
    const execute = vi.fn(() => "secret");
    const authorize = vi.fn((call: { args: Record<string, unknown> }, _context: AuthorizeContext) =>
      call.args.incident_id === "INC-001" ? true : call.args.incident_id === "INC-002" ? false : "on-call only",
    );
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "INC-001" } },
          { name: "lookup_incident", args: { incident_id: "INC-002" } },
          { name: "lookup_incident", args: { incident_id: "INC-003" } },
        ]),
        textStep("I may only show INC-001."),
      ],
      { allowParallelToolCalls: true },
    );
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool(execute)], authorize });

    expect(execute).toHaveBeenCalledTimes(1);
    const [first, second, third] = run.steps[0]!.toolResults;
    expect(first).toMatchObject({ result: "secret", message: { content: "secret" } });
    expect(second!.refused).toBe("the application refused this call.");
    expect(second!.message.content).toBe(
      "Not authorized: the application refused this call. The tool 'lookup_incident' was not run.",
    );
    expect(third!.refused).toBe("on-call only");
    expect(third!.message.content).toBe("Not authorized: on-call only The tool 'lookup_incident' was not run.");
    expect(model.calls[1]!.messages.slice(-3).map((message) => message.content)).toEqual(
      run.steps[0]!.toolResults.map((result) => result.message.content),
    );
    const context = authorize.mock.calls[0]![1];
    expect(context.stepIndex).toBe(0);
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.messages.at(-1)).toEqual(run.messages[2]);
  });

  it("should refuse a call when authorize returns anything but true", async () => {
    const execute = vi.fn(() => "ran");
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("ok")]);
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [lookupTool(execute)],
      authorize: (() => undefined) as never,
    });
    expect(execute).not.toHaveBeenCalled();
    expect(run.steps[0]!.toolResults[0]!.refused).toBeDefined();
  });

  it("should reject with RunError reason max-steps after maxSteps model calls without an answer", async () => {
    const steps = Array.from({ length: 5 }, (_, index) =>
      toolCallStep("lookup_incident", { incident_id: `INC-00${index}` }),
    );
    const model = new ScriptedChatModel(steps);
    const error = await runErrorIn(mode, { model, messages: question(), tools: [lookupTool()], maxSteps: 3 });

    expect(error.reason).toBe("max-steps");
    expect(error.message).toContain("maxSteps: 3");
    expect(model.calls).toHaveLength(3);
    expect(error.steps).toHaveLength(3);
    // Every step's tools ran: the transcript can be continued as it is.
    expect(error.messages).toHaveLength(question().length + 6);
    expect(error.messages.at(-1)).toMatchObject({ role: "tool", content: "incident INC-002 not found" });
  });

  it("should stop at 10 model calls by default", async () => {
    const model = new ScriptedChatModel(
      Array.from({ length: 11 }, () => toolCallStep("lookup_incident", { incident_id: "INC-001" })),
    );
    const error = await runErrorIn(mode, { model, messages: question(), tools: [lookupTool()] });
    expect(error.reason).toBe("max-steps");
    expect(model.calls).toHaveLength(10);
  });

  it("should reject with RunError reason model-error, the steps so far and the ProviderError as cause", async () => {
    const model = new ScriptedChatModel(
      [
        toolCallStep("lookup_incident", { incident_id: "INC-001" }),
        errorStep({ statusCode: 503, message: "overloaded" }),
        errorStep({ statusCode: 503, message: "overloaded" }),
      ],
      { retry: { initialDelayMs: 1 } },
    );
    const error = await runErrorIn(mode, {
      model,
      messages: question(),
      tools: [lookupTool()],
      maxRetries: 1,
    });

    expect(error.reason).toBe("model-error");
    expect(ProviderError.isInstance(error.cause)).toBe(true);
    expect((error.cause as ProviderError).statusCode).toBe(503);
    expect(model.calls).toHaveLength(3); // the step that failed was retried once by the model
    expect(error.steps).toHaveLength(1);
    expect(error.messages).toHaveLength(question().length + 2);
    expect(error.message).toContain("failed at step 2");
    expect(error.providerId).toBe("scripted");
  });

  it("should never mutate the caller's messages", async () => {
    const messages = question();
    const before = structuredClone(messages);
    Object.freeze(messages);
    for (const message of messages) Object.freeze(message);
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("ok")]);
    const { run } = await runIn(mode, { model, messages, tools: [lookupTool()] });

    expect(messages).toEqual(before);
    expect(run.messages).not.toBe(messages);
    expect(run.messages).toHaveLength(5);
  });

  it("should call onStep after each step, its tools run, and end the run with an error it throws", async () => {
    const seen: number[] = [];
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      toolCallStep("lookup_incident", { incident_id: "INC-002" }),
      textStep("never asked"),
    ]);
    const stop = new Error("persisting the step failed");
    const promise = runIn(mode, {
      model,
      messages: question(),
      tools: [lookupTool()],
      onStep: async (step) => {
        seen.push(step.toolResults.length);
        if (step.stepIndex === 1) throw stop;
      },
    });
    await expect(promise).rejects.toBe(stop);
    expect(seen).toEqual([1, 1]);
    expect(model.calls).toHaveLength(2);
  });

  it("should make every model call through the model's emitter", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("ok")]);
    const events: string[] = [];
    for (const event of ["start", "success", "finish"] as const) model.emitter.on(event, () => events.push(event));
    await runIn(mode, { model, messages: question(), tools: [lookupTool()] });
    expect(events).toEqual(["start", "success", "finish", "start", "success", "finish"]);
  });

  it("should end the run on a call to a tool without execute, after running the other calls of the step", async () => {
    const answer = defineTool({ name: "answer", inputSchema: z.object({ summary: z.string() }) });
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_l" },
          { name: "answer", args: { summary: "auth-api is down" }, id: "call_a" },
        ]),
      ],
      { allowParallelToolCalls: true },
    );
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookupTool(), answer] });

    expect(run.toolCalls).toEqual([
      { type: "tool-call", id: "call_a", name: "answer", args: { summary: "auth-api is down" } },
    ]);
    expect(run.steps[0]!.toolResults.map((result) => result.toolCall.id)).toEqual(["call_l"]);
    expect(run.messages.slice(2).map((message) => message.role)).toEqual(["assistant", "tool"]);
    expect(model.calls).toHaveLength(1);
  });

  it("should end on the parsed object with a responseFormat", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep('{"service": "auth-api", "severity": 1}'),
    ]);
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [lookupTool()],
      responseFormat: z.object({ service: z.string(), severity: z.number() }),
    });
    expect(run.object).toEqual({ service: "auth-api", severity: 1 });
    expect(model.calls[1]!.responseFormat).toMatchObject({ type: "json-schema" });
  });

  it("should pass the run's call options to every model call", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("ok")]);
    await runIn(mode, {
      model,
      messages: question(),
      tools: [lookupTool()],
      parameters: { temperature: 0 },
      providerOptions: { user: "u-1" },
      toolChoice: "auto",
    });
    for (const call of model.calls) {
      expect(call.parameters).toEqual({ temperature: 0 });
      expect(call.providerOptions).toEqual({ user: "u-1" });
      expect(call.toolChoice).toBe("auto");
    }
  });
});

describe("runTools options", () => {
  const model = new ScriptedChatModel([]);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["no model", { model: undefined }, /needs a model/],
    ["no messages", { messages: [] }, /needs messages/],
    ["tools not an array", { tools: "lookup" }, /needs tools/],
    ["two tools with one name", { tools: [lookupTool(), lookupTool()] }, /Two tools are named 'lookup_incident'/],
    ["maxSteps 0", { maxSteps: 0 }, /maxSteps must be a positive integer/],
    ["concurrency 1.5", { concurrency: 1.5 }, /concurrency must be/],
    ["toolErrors 'ignore'", { toolErrors: "ignore" }, /toolErrors must be "send" or "throw"/],
    ["authorize not a function", { authorize: true }, /authorize must be a function/],
  ];
  it.each(cases)("should reject %s with a TypeError before any call", async (_name, change, message) => {
    const options = { model, messages: question(), tools: [lookupTool()], ...change } as never;
    await expect(runIn("runTools", options)).rejects.toThrow(message);
    await expect(runIn("runTools", options)).rejects.toBeInstanceOf(TypeError);
    expect(() => streamTools(options)).toThrow(message);
    expect(model.calls).toHaveLength(0);
  });

  it("should reject a non-function execute when the tool is defined", () => {
    expect(() => defineTool({ name: "x", inputSchema: z.object({}), execute: "run" as never })).toThrow(
      /Tool 'x': execute must be a function/,
    );
  });
});

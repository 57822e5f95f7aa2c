// Errors a new user hit (issue 23), through the public API: each message names the cause and the fix.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type Message } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep, toolCallStep, toolCallsStep } from "../../../src/testing/index.js";

const getWeather = defineTool({ name: "get_weather", inputSchema: z.object({ city: z.string() }) });
const getTime = defineTool({ name: "get_time", inputSchema: z.object({ zone: z.string() }) });
const user = (content: string): Message => ({ role: "user", content });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

describe("errors a new user meets", () => {
  it("should name allowParallelToolCalls: true, with the constructor line, when replies keep calling two tools", async () => {
    const twoCalls = () =>
      toolCallsStep([
        { name: "get_weather", args: { city: "Oslo" } },
        { name: "get_time", args: { zone: "Europe/Oslo" } },
      ]);
    const model = new ScriptedChatModel([twoCalls(), twoCalls(), twoCalls()]);
    const error = await rejection(
      model.create({ messages: [user("weather and time?")], tools: [getWeather, getTime] }),
    );
    expect(ToolCallError.isInstance(error) && error.kind).toBe("parallel-calls");
    // The cause, as before ...
    expect(error.message).toContain("call one tool at a time; the reply called 2 (get_weather, get_time)");
    // ... and the fix, ready to paste.
    expect(error.message).toContain("allowParallelToolCalls: true");
    expect(error.message).toContain("new ScriptedChatModel(steps, { allowParallelToolCalls: true })");
    // The model is re-asked with the feedback only, never the advice meant for the developer.
    expect((error as ToolCallError).feedback).not.toContain("allowParallelToolCalls");
    expect(model.calls).toHaveLength(3);
  });

  it("should refuse a tool message whose toolCallId matches no earlier tool call, naming the id, before any request", async () => {
    const model = new ScriptedChatModel([textStep("never reached")]);
    const messages: Message[] = [
      user("weather?"),
      {
        role: "assistant",
        content: [{ type: "tool-call", id: "call_1", name: "get_weather", args: { city: "Oslo" } }],
      },
      { role: "tool", toolCallId: "call_2", toolName: "get_weather", content: '{"temp":3}' },
    ];
    const error = await rejection(model.create({ messages, tools: [getWeather] }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(
      'input.messages[2] is a tool result for toolCallId "call_2", which matches no earlier tool call',
    );
    expect(error.message).toContain('the earlier tool calls are "call_1"');
    expect(error.message).toContain("Append the assistant message that made the call (output.message)");
    expect(model.calls).toHaveLength(0);
    // A result answering its call goes through.
    messages[2] = { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: '{"temp":3}' };
    expect((await model.create({ messages, tools: [getWeather] })).text).toBe("never reached");
  });

  it("should say a request past the script was a new call from the code under test, not a retry, when none happened", async () => {
    const model = new ScriptedChatModel([textStep("first")]);
    const input = { messages: [user("same question")] };
    await model.create(input);
    const error = await rejection(model.create(input));
    expect(error.message).toContain("ran out of steps: the script has 1 step(s) and request 2 asked for another");
    expect(error.message).toContain("a new call from the code under test with the same input as request 1");
    expect(error.message).toContain("no retry");
    expect(error.message).not.toContain("transport retry after an error");
  });

  it("should still say a repeat was keelson's transport retry when one happened", async () => {
    const model = new ScriptedChatModel([errorStep({ statusCode: 503 })], {
      retry: { maxRetries: 1, initialDelayMs: 1 },
    });
    const error = await rejection(model.create({ messages: [user("q")] }));
    expect(error.message).toContain("It repeats request 1: keelson retried it after a transport error (attempt 2)");
  });

  it("should not take a single call as parallel: one call passes with the default settings", async () => {
    const model = new ScriptedChatModel([toolCallStep("get_weather", { city: "Oslo" })]);
    const output = await model.create({ messages: [user("weather?")], tools: [getWeather, getTime] });
    expect(output.toolCalls.map((call) => call.name)).toEqual(["get_weather"]);
  });
});

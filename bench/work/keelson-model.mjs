// The keelson side's shared part: the input (a tool defined once, validated with ajv), the event
// listeners BENCH_LISTENERS asks for, and the two kinds of work on a built model.
import process from "node:process";
import { defineTool } from "keelson";
import { weatherParameters, weatherTool, workload } from "../fixtures.mjs";

const tool = defineTool({
  name: weatherTool.name,
  description: weatherTool.description,
  inputSchema: weatherParameters,
});

/** "none": no listener; "lifecycle" (the default): start, success, error and finish; "all": every event, newToken included. */
export const listeners = process.env.BENCH_LISTENERS ?? "lifecycle";
const lifecycleEvents = ["start", "success", "error", "finish"];
const allEvents = [...lifecycleEvents, "newToken", "retry", "repair", "fallback", "cacheHit", "warning"];

/** The growth cases' other tools, defined as a user would (JSON Schema, validated with ajv). */
const toolsFor = (tools) =>
  tools.map((other) =>
    other.name === weatherTool.name
      ? tool
      : defineTool({ name: other.name, description: other.description, inputSchema: other.parameters }),
  );

export function work(model, toolChoice, path = "native") {
  let seen = 0;
  const events = listeners === "all" ? allEvents : listeners === "none" ? [] : lifecycleEvents;
  for (const event of events) model.emitter.on(event, () => void seen++);
  const { messages, tools } = workload(path);
  const input = { messages, tools: toolsFor(tools), toolChoice };

  async function call() {
    const output = await model.create(input);
    return output.toolCalls[0].args;
  }

  async function stream() {
    const reply = model.createStream(input);
    let text = "";
    for await (const chunk of reply) if (chunk.type === "text-delta") text += chunk.text; // as a UI would
    const output = await reply.final();
    return { args: output.toolCalls[0].args, text };
  }

  return { call, stream };
}

// The raw `@anthropic-ai/sdk` doing the benchmark's work: send the tool (or the forced output
// format), read the reply, and take the tool call's arguments (parsed from the JSON when streamed).
import Anthropic from "@anthropic-ai/sdk";
import { anthropicUnionSchema, messages, modelId, weatherTool } from "../fixtures.mjs";

export function setup({ baseURL, forced }) {
  const client = new Anthropic({ apiKey: "bench", baseURL, maxRetries: 0 });
  const [system, ...turns] = messages;
  const base = {
    model: modelId,
    max_tokens: 4096,
    system: [{ type: "text", text: system.content }],
    messages: turns.map((turn) => ({ role: turn.role, content: [{ type: "text", text: turn.content }] })),
  };
  const body = forced
    ? { ...base, output_config: { format: { type: "json_schema", schema: anthropicUnionSchema } } }
    : {
        ...base,
        tools: [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters }],
        tool_choice: { type: "tool", name: weatherTool.name, disable_parallel_tool_use: true },
      };

  async function call() {
    const message = await client.messages.create({ ...body, stream: false });
    if (forced) return JSON.parse(message.content.find((block) => block.type === "text").text).item.parameters;
    return message.content.find((block) => block.type === "tool_use").input;
  }

  async function stream() {
    const events = await client.messages.create({ ...body, stream: true });
    let text = "";
    let args = "";
    for await (const event of events) {
      if (event.type !== "content_block_delta") continue;
      if (event.delta.type === "text_delta") text += event.delta.text;
      else if (event.delta.type === "input_json_delta") args += event.delta.partial_json;
    }
    if (forced) return { args: JSON.parse(text).item.parameters, text };
    return { args: JSON.parse(args), text };
  }

  return { call, stream };
}

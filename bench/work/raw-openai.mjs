// The raw `openai` SDK doing the benchmark's work: send the tool (or the forced response format),
// read the reply, and parse the tool call's JSON arguments.
import OpenAI from "openai";
import { modelId, openAIUnionSchema, weatherTool, workload } from "../fixtures.mjs";

export function setup({ baseURL, forced, path }) {
  const { messages, tools } = workload(path);
  const client = new OpenAI({ apiKey: "bench", baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const body = forced
    ? {
        model: modelId,
        messages,
        response_format: {
          type: "json_schema",
          json_schema: { name: "tool_call", schema: openAIUnionSchema, strict: true },
        },
      }
    : {
        model: modelId,
        messages,
        tools: tools.map((tool) => ({ type: "function", function: tool })),
        tool_choice: { type: "function", function: { name: weatherTool.name } },
        parallel_tool_calls: false,
      };

  async function call() {
    const completion = await client.chat.completions.create({ ...body, stream: false });
    const message = completion.choices[0].message;
    if (forced) return JSON.parse(message.content).item.parameters;
    return JSON.parse(message.tool_calls[0].function.arguments);
  }

  async function stream() {
    const chunks = await client.chat.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    const calls = [];
    for await (const chunk of chunks) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) text += delta.content;
      for (const part of delta.tool_calls ?? []) {
        const pending = (calls[part.index] ??= { id: "", name: "", args: "" });
        if (part.id) pending.id = part.id;
        if (part.function?.name) pending.name = part.function.name;
        if (part.function?.arguments) pending.args += part.function.arguments;
      }
    }
    if (forced) return { args: JSON.parse(text).item.parameters, text };
    return { args: JSON.parse(calls[0].args), text };
  }

  return { call, stream };
}

// The raw `ollama` SDK doing the benchmark's work: send the tool (or the forced `format`), read the
// reply (Ollama sends tool arguments as an object; a forced reply is JSON text to parse).
import { Ollama } from "ollama";
import { modelId, ollamaUnionSchema, workload } from "../fixtures.mjs";

export function setup({ baseURL, forced, path }) {
  const { messages, tools } = workload(path);
  const client = new Ollama({ host: baseURL });
  const body = forced
    ? { model: modelId, messages, format: ollamaUnionSchema }
    : { model: modelId, messages, tools: tools.map((tool) => ({ type: "function", function: tool })) };

  async function call() {
    const response = await client.chat({ ...body, stream: false });
    if (forced) return JSON.parse(response.message.content).parameters;
    return response.message.tool_calls[0].function.arguments;
  }

  async function stream() {
    const parts = await client.chat({ ...body, stream: true });
    let text = "";
    const calls = [];
    for await (const part of parts) {
      if (part.message?.content) text += part.message.content;
      for (const toolCall of part.message?.tool_calls ?? []) calls.push(toolCall);
    }
    if (forced) return { args: JSON.parse(text).parameters, text };
    return { args: calls[0].function.arguments, text };
  }

  return { call, stream };
}

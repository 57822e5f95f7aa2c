// keelson's Anthropic adapter doing the benchmark's work. Native: tool_choice for one tool. Forced:
// the same request on a model whose support set lacks "single" and "required" and that takes a
// JSON-schema output format, so keelson sends the tool union as `output_config.format` and reads
// the call back from the text.
import { AnthropicChatModel } from "keelson/anthropic";
import { modelId, weatherTool } from "../fixtures.mjs";
import { work } from "./keelson-model.mjs";

export function setup({ baseURL, forced }) {
  const model = new AnthropicChatModel(modelId, {
    apiKey: "bench",
    baseURL,
    ...(forced ? { toolChoiceSupport: ["auto", "none"], supportsStructuredOutput: true } : {}),
  });
  return work(model, { type: "tool", name: weatherTool.name });
}

// keelson's OpenAI adapter doing the benchmark's work. Native: tool_choice for one tool. Forced: the
// same request on a model whose support set lacks "single" and "required", so keelson sends the
// tool union as a strict JSON-schema response format and reads the call back from the text.
import { OpenAIChatModel } from "keelson/openai";
import { modelId, weatherTool } from "../fixtures.mjs";
import { work } from "./keelson-model.mjs";

export function setup({ baseURL, forced, path }) {
  const model = new OpenAIChatModel(modelId, {
    apiKey: "bench",
    baseURL: `${baseURL}/v1`,
    ...(forced ? { toolChoiceSupport: ["auto", "none"] } : {}),
  });
  return work(model, { type: "tool", name: weatherTool.name }, path);
}

// keelson's Ollama adapter doing the benchmark's work. Native: the tools sent with toolChoice "auto"
// (Ollama has no tool_choice, as on the raw side). Forced: one tool forced, which keelson sends as
// the tool-union `format` and reads back from the text.
import { OllamaChatModel } from "keelson/ollama";
import { modelId, weatherTool } from "../fixtures.mjs";
import { work } from "./keelson-model.mjs";

export function setup({ baseURL, forced, path }) {
  const model = new OllamaChatModel(modelId, { host: baseURL });
  return work(model, forced ? { type: "tool", name: weatherTool.name } : "auto", path);
}

// One cold import: `node bench/import-worker.mjs <raw|keelson> <openai|ollama|anthropic> <import|construct>`.
// Times the import of the SDK alone, or of keelson and one adapter; "construct" also builds a
// client or model (keelson's adapters load their SDK then). keelson and the adapter load as one
// graph, as a user's two import declarations do. Prints {"ms": n, "peakRssBytes": n}. The mode
// "none" loads nothing: the process's own start, which `npm run bench:instructions` subtracts.
import process from "node:process";
import { performance } from "node:perf_hooks";

const [side, provider, mode] = process.argv.slice(2);
const host = "http://127.0.0.1:9";

const start = performance.now();
if (mode === "none") {
  // Nothing loaded.
} else if (side === "raw" && provider === "openai") {
  const { default: OpenAI } = await import("openai");
  if (mode === "construct") new OpenAI({ apiKey: "bench", baseURL: `${host}/v1`, maxRetries: 0 });
} else if (side === "raw" && provider === "ollama") {
  const { Ollama } = await import("ollama");
  if (mode === "construct") new Ollama({ host });
} else if (side === "raw" && provider === "anthropic") {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  if (mode === "construct") new Anthropic({ apiKey: "bench", baseURL: host, maxRetries: 0 });
} else if (side === "keelson" && provider === "openai") {
  const [, { OpenAIChatModel }] = await Promise.all([import("keelson"), import("keelson/openai")]);
  if (mode === "construct") new OpenAIChatModel("bench-model", { apiKey: "bench", baseURL: `${host}/v1` });
} else if (side === "keelson" && provider === "ollama") {
  const [, { OllamaChatModel }] = await Promise.all([import("keelson"), import("keelson/ollama")]);
  if (mode === "construct") new OllamaChatModel("bench-model", { host });
} else if (side === "keelson" && provider === "anthropic") {
  const [, { AnthropicChatModel }] = await Promise.all([import("keelson"), import("keelson/anthropic")]);
  if (mode === "construct") new AnthropicChatModel("bench-model", { apiKey: "bench", baseURL: host });
} else {
  throw new Error(`unknown import case: ${side} ${provider} ${mode}`);
}
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ ms, peakRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);

import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
    "adapters/openai/index": "src/adapters/openai/index.ts",
    "adapters/azure-openai/index": "src/adapters/azure-openai/index.ts",
    "adapters/ollama/index": "src/adapters/ollama/index.ts",
    "adapters/bedrock/index": "src/adapters/bedrock/index.ts",
    "adapters/anthropic/index": "src/adapters/anthropic/index.ts",
    "otel/index": "src/otel/index.ts",
    "eval/index": "src/eval/index.ts",
    "adapters/google/index": "src/adapters/google/index.ts",
    "mcp/index": "src/mcp/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
  target: "node20",
  // The root injected into every entry: every entry then reaches the same files, and esbuild emits
  // one shared chunk instead of one per set of entries that share a file, so `keelson` plus
  // `keelson/ollama` read 3 files, not 27 (Node's ESM loader pays per file). It earns, in
  // `BENCH_CASES=import npm run bench:instructions`: their import 113.7M -> 57.3M instructions, import
  // + construct 258M -> 204M (1.71x -> 1.35x the raw ollama SDK's). Inject also stands a root export in
  // for a free global of the same name; test/imports.test.ts checks that no root export is named like one.
  esbuildOptions(options) {
    options.inject = ["src/index.ts"];
  },
  external: [
    "openai",
    "@anthropic-ai/sdk",
    "ollama",
    "@aws-sdk/client-bedrock-runtime",
    "@google/genai",
    "@modelcontextprotocol/sdk",
    "zod",
    "vitest",
    "@opentelemetry/api",
    "echarts",
    "cli-progress",
  ],
});

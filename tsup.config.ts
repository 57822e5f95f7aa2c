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
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
  target: "node20",
  external: [
    "openai",
    "@anthropic-ai/sdk",
    "ollama",
    "@aws-sdk/client-bedrock-runtime",
    "zod",
    "vitest",
    "@opentelemetry/api",
    "echarts",
    "cli-progress",
  ],
});

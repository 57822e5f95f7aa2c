import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

// The examples' own tests, run by examples/run-all.sh; `npm test` (vitest.config.ts) runs only test/**.
// The aliases do what tsconfig's `paths` do for tsx: `keelson/…` is this checkout's src/.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^keelson$/, replacement: src("index.ts") },
      { find: /^keelson\/testing$/, replacement: src("testing/index.ts") },
      { find: /^keelson\/(openai|azure-openai|ollama|bedrock)$/, replacement: src("adapters/$1/index.ts") },
      { find: /^keelson\/otel$/, replacement: src("otel/index.ts") },
      { find: /^keelson\/eval$/, replacement: src("eval/index.ts") },
    ],
  },
  test: {
    include: ["examples/**/*.test.ts"],
    testTimeout: 20_000,
  },
});

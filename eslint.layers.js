// Which way imports may point (see docs/architecture.md): adapters → core → internal. Kept apart
// from eslint.config.js so that test/layering.test.ts runs these very rules on snippets.
const restrict = (files, patterns) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

export const layers = [
  restrict(
    ["src/core/**/*.ts"],
    [
      { regex: "(^|/)adapters/", message: "core never imports an adapter: move what both need into core." },
      { regex: "(^|/)testing(/|$)", message: "core never imports keelson/testing." },
      { regex: "^keelson(/|$)", message: "core imports its own files, not the package." },
    ],
  ),
  restrict(
    ["src/internal/**/*.ts"],
    [{ regex: "(^|/)(core|adapters|testing)/", message: "internal never imports core, an adapter or testing." }],
  ),
  restrict(
    [
      "src/adapters/openai/**/*.ts",
      "src/adapters/ollama/**/*.ts",
      "src/adapters/bedrock/**/*.ts",
      "src/adapters/google/**/*.ts",
    ],
    [{ regex: "^\\.\\./(?!\\.\\./)", message: "adapters never import each other: move what both need into core." }],
  ),
  restrict(
    ["src/adapters/azure-openai/**/*.ts"],
    [{ regex: "^\\.\\./(?!\\.\\./|openai/)", message: "Azure imports the OpenAI adapter only." }],
  ),
];

// Which way imports may point (see docs/architecture.md): the entry files (src/*.ts) → features
// (fleet, run-tools, eval, otel, testing, mcp) → adapters' entries → core → internal. Every folder of
// src has its rule here; kept apart from eslint.config.js so that test/layering.test.ts runs these
// very rules on snippets.
const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

/** The feature folders: each builds on core, and core on none of them. */
const features = ["fleet", "run-tools", "eval", "otel", "testing", "mcp"];
const featureImport = `(^|/)(${features.join("|")})(/|$)`;

const noFeatures = (who) => ({
  regex: featureImport,
  message: `${who} never imports a feature folder (${features.join(", ")}): move what both need into core, or compose it as middleware.`,
});
const noAdapters = (who) => ({
  regex: "(^|/)adapters/",
  message: `${who} never imports an adapter: move what both need into core.`,
});
const noSiblingAdapter = {
  regex: "^\\.\\./(?!\\.\\./)",
  message: "adapters never import each other: move what both need into core.",
};

export const layers = [
  restrict(
    ["src/core/**/*.ts"],
    [
      noAdapters("core"),
      noFeatures("core"),
      { regex: "^keelson(/|$)", message: "core imports its own files, not the package." },
    ],
  ),
  restrict(
    ["src/internal/**/*.ts"],
    [
      {
        regex: `(^|/)(core|adapters|${features.join("|")})(/|$)`,
        message: "internal imports nothing above it (core, an adapter, a feature folder).",
      },
    ],
  ),
  restrict(["src/adapters/**/*.ts"], [noSiblingAdapter, noFeatures("an adapter")], ["src/adapters/azure-openai/**"]),
  restrict(
    ["src/adapters/azure-openai/**/*.ts"],
    [
      { regex: "^\\.\\./(?!\\.\\./|openai/)", message: "Azure imports the OpenAI adapter only." },
      noFeatures("an adapter"),
    ],
  ),
  restrict(
    features.map((feature) => `src/${feature}/**/*.ts`),
    [
      {
        regex: "(^|/)adapters/[^/]+/(?!index\\.js$)",
        message:
          "a feature folder imports an adapter through its entry (adapters/<name>/index.js), never its internals.",
      },
    ],
  ),
];

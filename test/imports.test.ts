import { describe, expect, it } from "vitest";
import { importGraph, projectRoot } from "./support/import-graph.js";

const providerSDKs = [
  "openai",
  "ollama",
  "@aws-sdk/client-bedrock-runtime",
  "@anthropic-ai/sdk",
  "@google/genai",
  "@modelcontextprotocol/sdk",
];
const reachablePackages = (entry: string) => importGraph(entry).packages;
const root = projectRoot;

describe("package entry points", () => {
  it.each(["src/index.ts", "src/testing/index.ts"])("%s should load no provider SDK", (entry) => {
    const packages = reachablePackages(entry);
    expect(packages.size).toBeGreaterThan(0);
    for (const sdk of providerSDKs) expect(packages).not.toContain(sdk);
    expect(packages).not.toContain("vitest");
    expect(packages).not.toContain("jest");
  });

  it.each(["src/index.ts", "src/testing/index.ts"])(
    "%s should load nothing of keelson/eval (nor its chart and progress-bar libraries)",
    (entry) => {
      const { files, packages } = importGraph(entry);
      expect([...files].filter((file) => file.includes("/src/eval/"))).toEqual([]);
      expect(packages).not.toContain("echarts");
      expect(packages).not.toContain("cli-progress");
    },
  );

  it("keelson/eval should reach its progress bar and its HTML report (the scan sees them; echarts loads on the first report)", () => {
    const { files, packages } = importGraph("src/eval/index.ts");
    expect(packages).toContain("cli-progress");
    expect([...files].some((file) => file.endsWith("src/eval/html-report.ts"))).toBe(true);
  });

  it("should name no root export like a global (the build injects the root into every entry, standing its exports in for free globals)", async () => {
    const rootExports = Object.keys(await import("../src/index.js"));
    expect(rootExports).toContain("ChatModel");
    expect(rootExports.filter((name) => name in globalThis)).toEqual([]);
  });

  it("should see the imports it is looking for (the scan is not blind)", () => {
    const { files, packages } = importGraph("src/testing/index.ts");
    expect(packages).toContain("node"); // node: builtins (node:module for lazyRequire) are seen
    expect(packages).toContain("p-retry"); // through a dynamic import()
    expect([...files].some((file) => file.endsWith("run-adapter-conformance.ts"))).toBe(true);
    // keelson/otel loads @opentelemetry/api through lazyRequire (a missing one is a MissingDependencyError), so the scan sees its module.
    expect([...importGraph("src/otel/index.ts").files].some((file) => file.endsWith("instrument-chat-model.ts"))).toBe(
      true,
    );
  });
});

describe("importing keelson at runtime", () => {
  it("should load no provider SDK until a model is built, and load it then", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const script = `
      const { createRequire } = await import("node:module");
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).filter((path) => /node_modules\\/(openai|ollama|@aws-sdk|@anthropic-ai|@google\\/genai|@modelcontextprotocol)\\//.test(path)).length;
      const keelson = await import("./src/index.ts");
      await import("./src/testing/index.ts");
      const before = loaded();
      keelson.createChatModel("ollama:llama3.1");
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({ before: 0, after: expect.any(Number) });
    expect(JSON.parse(stdout).after).toBeGreaterThan(0);
  });

  it("should not touch fetch's classes until a request is sent (Node loads its fetch, ~20 ms, when one is first read)", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    // Each class is wrapped in a getter that notes its use, then hands out the platform's own. (The raw SDKs
    // read the global \`fetch\` when built, as keelson's adapters do: that function loads nothing until called.)
    const script = `
      const touched = [];
      for (const name of ["Response", "Request", "Headers", "FormData"]) {
        const own = Object.getOwnPropertyDescriptor(globalThis, name);
        Object.defineProperty(globalThis, name, {
          configurable: true,
          get() { touched.push(name); return own.get ? own.get.call(globalThis) : own.value; },
        });
      }
      const { createChatModel } = await import("./src/index.ts");
      const { OllamaChatModel } = await import("./src/adapters/ollama/index.ts");
      const { OpenAIChatModel } = await import("./src/adapters/openai/index.ts");
      createChatModel("ollama:llama3.1");
      new OllamaChatModel("llama3.1", { host: "http://127.0.0.1:9" });
      new OpenAIChatModel("gpt-4o", { apiKey: "test", baseURL: "http://127.0.0.1:9/v1" });
      console.log(JSON.stringify([...new Set(touched)]));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual([]);
  });
});

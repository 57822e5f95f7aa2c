import { GoogleChatModel } from "../src/adapters/google/index.js";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import { AzureOpenAIChatModel } from "../src/adapters/azure-openai/index.js";
import { BedrockChatModel } from "../src/adapters/bedrock/index.js";
import { OllamaChatModel } from "../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../src/adapters/openai/index.js";
import { createChatModel, type ChatModelName, type ChatModelOptionsByProvider } from "../src/index.js";
import { ScriptedChatModel } from "../src/testing/index.js";

const root = resolve(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "keelson-create-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("createChatModel", () => {
  it.each([
    ["ollama:llama3.1", OllamaChatModel, "ollama", "llama3.1"],
    ["ollama:granite4:micro", OllamaChatModel, "ollama", "granite4:micro"],
    ["openai:gpt-4o", OpenAIChatModel, "openai", "gpt-4o"],
    ["azure-openai:my-deployment", AzureOpenAIChatModel, "azure-openai", "my-deployment"],
    ["azure:my-deployment", AzureOpenAIChatModel, "azure-openai", "my-deployment"],
    [
      "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      BedrockChatModel,
      "bedrock",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ],
    ["amazon-bedrock:amazon.nova-micro-v1:0", BedrockChatModel, "bedrock", "amazon.nova-micro-v1:0"],
    ["google:gemini-2.5-flash", GoogleChatModel, "google", "gemini-2.5-flash"],
    ["scripted:agent-test", ScriptedChatModel, "scripted", "agent-test"],
  ])("should build %s, splitting on the first colon only", (name, type, providerId, modelId) => {
    // A name known only at run time is cast, and checked when the model is built.
    const model = createChatModel(
      name as ChatModelName,
      {
        apiKey: "sk-test",
        endpoint: "https://example.openai.azure.com",
        region: "us-east-1",
      } as object,
    );
    expect(model).toBeInstanceOf(type);
    expect([model.providerId, model.modelId]).toEqual([providerId, modelId]);
  });

  it("should pass options through to the adapter", () => {
    const model = createChatModel("ollama:llama3.1", { toolChoiceSupport: ["auto", "required"], maxRepairAttempts: 4 });
    expect([...model.toolChoiceSupport]).toEqual(["auto", "required"]);
    expect(model.maxRepairAttempts).toBe(4);
  });

  it("should list the known providers for an unknown one, and ask for a model id when there is none", () => {
    // @ts-expect-error not a provider createChatModel knows
    expect(() => createChatModel("mistral:large")).toThrow(
      /Unknown provider 'mistral'.*Known providers: openai, azure-openai, azure, ollama, bedrock, amazon-bedrock, anthropic, google, vllm, llamacpp, lmstudio, groq, openrouter, deepseek, together, gemini, scripted/,
    );
    // @ts-expect-error no model id
    expect(() => createChatModel("ollama")).toThrow(/names no model: write "ollama:<model id>"/);
    // @ts-expect-error not a provider
    expect(() => createChatModel("constructor:x")).toThrow(/Unknown provider/);
  });

  it("should make a misspelt provider, and another provider's options, compile errors", () => {
    // @ts-expect-error "olama" is not a provider: the typo fails to compile
    expect(() => createChatModel("olama:llama3.1")).toThrow(/Unknown provider 'olama'/);
    // @ts-expect-error region is a Bedrock option, not an Ollama one
    expect(createChatModel("ollama:llama3.1", { region: "us-east-1" }).providerId).toBe("ollama");
    expect(createChatModel("bedrock:amazon.nova-micro-v1:0", { region: "us-east-1" }).providerId).toBe("bedrock");
    expectTypeOf(createChatModel<"ollama">)
      .parameter(1)
      .toEqualTypeOf<ChatModelOptionsByProvider["ollama"] | undefined>();
    expectTypeOf<"ollama:granite4:micro">().toExtend<ChatModelName>();
    expectTypeOf<"olama:llama3.1">().not.toExtend<ChatModelName>();
  });

  it("should raise MissingDependencyError naming the npm install when the provider SDK is absent", async () => {
    // Makes `openai` unresolvable, as on a machine where it was never installed: to require() and to
    // ES-module resolution alike (keelson's ESM code resolves an SDK's ESM entry first, then requires it).
    const esmHook = `export async function resolve(specifier, context, next) {
       if (specifier === "openai" || specifier.startsWith("openai/")) throw Object.assign(new Error("Cannot find package 'openai'"), { code: "ERR_MODULE_NOT_FOUND" });
       return next(specifier, context);
     }`;
    writeFileSync(
      join(work, "block-openai.cjs"),
      `const Module = require("node:module");
       const resolveFilename = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) {
         if (request === "openai" || request.startsWith("openai/")) throw Object.assign(new Error("Cannot find module 'openai'"), { code: "MODULE_NOT_FOUND" });
         return resolveFilename.call(this, request, ...rest);
       };
       Module.register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(esmHook)}`)});`,
    );
    writeFileSync(
      join(work, "check.mts"),
      `const keelson = await import(${JSON.stringify(join(root, "src/index.ts"))});
       try { keelson.createChatModel("openai:gpt-4o", { apiKey: "sk-test" }); console.log("built"); }
       catch (error) { console.log(JSON.stringify({ missing: keelson.MissingDependencyError.isInstance(error), packageName: error.packageName, message: error.message })); }`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", join(work, "block-openai.cjs"), "--import", "tsx", join(work, "check.mts")],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({
      missing: true,
      packageName: "openai",
      message: expect.stringContaining("Run: npm install openai"),
    });
  });
});

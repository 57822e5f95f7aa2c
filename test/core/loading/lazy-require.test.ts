import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { Ollama } from "ollama/browser";
import { Ollama as OllamaNode } from "ollama";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { MissingDependencyError } from "../../../src/index.js";
import { lazyRequire, lazyRequireSDK } from "../../../src/core/loading/lazy-require.js";

// The tests run keelson's source as an ES module, as an ESM app runs keelson's ESM build: the SDK
// keelson loads must be the very module this file's `import` got, not the SDK's CommonJS twin.
describe("lazyRequireSDK in an ES module", () => {
  it("should load the openai build an import gets, so one APIError class is shared", () => {
    const sdk = lazyRequireSDK<typeof import("openai")>("openai", "the OpenAI adapters")();
    expect(sdk.OpenAI).toBe(OpenAI);
    expect(sdk.APIError).toBe(OpenAI.APIError);
    // The copy plain require() loads is another class: what an ESM app had before.
    expect(lazyRequire<typeof import("openai")>("openai", "the OpenAI adapters")().APIError).not.toBe(OpenAI.APIError);
  });

  it("should load the Anthropic SDK's ESM build", () => {
    const sdk = lazyRequireSDK<typeof import("@anthropic-ai/sdk")>("@anthropic-ai/sdk", "the Anthropic adapter")();
    expect(sdk.Anthropic).toBe(Anthropic);
    expect(sdk.APIError).toBe(Anthropic.APIError);
  });

  it("should load ollama/browser's ESM build, the one ollama's Node entry extends", () => {
    const sdk = lazyRequireSDK<typeof import("ollama/browser")>("ollama", "the Ollama adapter", "ollama/browser")();
    expect(sdk.Ollama).toBe(Ollama);
    expect(OllamaNode.prototype).toBeInstanceOf(sdk.Ollama);
  });

  it("should load the AWS SDK an import gets (it resolves to its CommonJS build for both)", () => {
    const sdk = lazyRequireSDK<typeof import("@aws-sdk/client-bedrock-runtime")>(
      "@aws-sdk/client-bedrock-runtime",
      "the Bedrock adapter",
    )();
    expect(sdk.BedrockRuntimeClient).toBe(BedrockRuntimeClient);
    expect(sdk.BedrockRuntimeClient).toBe(
      createRequire(import.meta.url)("@aws-sdk/client-bedrock-runtime").BedrockRuntimeClient,
    );
  });

  it("should load once and keep the module", () => {
    const load = lazyRequireSDK<typeof import("openai")>("openai", "the OpenAI adapters");
    expect(load()).toBe(load());
  });

  it("should name a missing SDK and the command that installs it", () => {
    const load = lazyRequireSDK("@keelson-test/not-installed-sdk", "the test adapter");
    expect(load).toThrow(MissingDependencyError);
    expect(load).toThrow(/npm install @keelson-test\/not-installed-sdk/);
  });
});

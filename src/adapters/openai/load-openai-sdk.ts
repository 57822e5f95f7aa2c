import { lazyRequireSDK } from "../../core/loading/lazy-require.js";

/**
 * The `openai` SDK, loaded when the first model is built: importing keelson/openai costs nothing
 * until then, and a missing SDK is a MissingDependencyError naming the install command.
 */
export const loadOpenAISDK = lazyRequireSDK<typeof import("openai")>(
  "openai",
  "the OpenAI adapters (keelson/openai, keelson/azure-openai)",
);

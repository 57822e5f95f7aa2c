import { lazyRequireSDK } from "../../core/loading/lazy-require.js";

/**
 * The `@anthropic-ai/sdk` package, loaded when the first model is built: importing keelson/anthropic
 * costs nothing until then, and a missing SDK is a MissingDependencyError naming the install command.
 */
export const loadAnthropicSDK = lazyRequireSDK<typeof import("@anthropic-ai/sdk")>(
  "@anthropic-ai/sdk",
  "the Anthropic adapter (keelson/anthropic)",
);

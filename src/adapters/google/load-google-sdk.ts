import { lazyRequireSDK } from "../../core/loading/lazy-require.js";

/**
 * The `@google/genai` package, loaded when the first model is built: importing keelson/google costs
 * nothing until then, and a missing SDK is a MissingDependencyError naming the install command.
 */
export const loadGoogleSDK = lazyRequireSDK<typeof import("@google/genai")>(
  "@google/genai",
  "the Google Gemini adapter (keelson/google)",
);

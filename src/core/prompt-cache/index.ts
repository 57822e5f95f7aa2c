export type { PromptCacheMode } from "./prompt-cache-mode.js";
export { readPromptCacheMode } from "./prompt-cache-mode.js";
export type { CachePointRules, CachePoints, CallerCachePoints } from "./place-cache-points.js";
export { carriesNoContent, maxCachePoints, placeCachePoints } from "./place-cache-points.js";
export { isTemporaryMessage, markTemporary } from "./temporary-messages.js";

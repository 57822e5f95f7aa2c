// What a model needs once it makes a call — preparing it, sending it with retries, repairing and
// validating the reply, caching — as one module that ChatModel loads on its first call: about half
// of keelson's code, which importing keelson and building a model then never compiles.
export { cacheKey } from "../cache/cache-key.js";
export { CacheLayer } from "./cache-layer.js";
export { prepareCall } from "./prepare-call.js";
export { runCreate } from "./run-create.js";
export { runStream } from "./run-stream.js";
export { learnedToolChoiceMessage, refusedToolChoice } from "../tool-choice/refused-tool-choice.js";

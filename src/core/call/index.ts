// The call module's surface: what ChatModel, the cache and the scripted model use of it. Nothing
// outside src/core/call imports its other files.
export { prepareCall, providerInput } from "./prepare-call.js";
export type { OutputRules, PreparedCall } from "./prepared-call.js";
export { runCall } from "./run-call.js";
export type { CallDependencies } from "./call-dependencies.js";
export { callChunks } from "./call-chunks.js";
export { partialOutput } from "./read-reply.js";
export { reAskLead } from "./repair-guidance.js";
export { dropUnsupportedParameters, droppedParameterMessage } from "./drop-unsupported-parameters.js";

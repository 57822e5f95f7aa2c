// The call module's surface: what ChatModel, the cache and the scripted model use of it. Nothing
// outside src/core/call imports its other files.
export { prepareCall, providerInput } from "./prepare-call.js";
export type { CallSettings, OutputRules, PreparedCall } from "./prepared-call.js";
export { runCall, type CallModel } from "./run-call.js";
export { callChunks } from "../stream/call-chunks.js";
export { partialOutput } from "./read-reply.js";
export { reAskLead } from "./repair-guidance.js";

export { ScriptedChatModel, type ScriptedChatModelOptions, type RecordedCall } from "./scripted-chat-model.js";
export {
  textStep,
  toolCallStep,
  toolCallsStep,
  rawStep,
  errorStep,
  streamStep,
  type ScriptedStep,
  type AnswerStep,
  type ErrorStep,
  type StreamStep,
  type FunctionStep,
  type ScriptedToolCall,
  type StepOptions,
  type ErrorSpec,
} from "./scripted-steps.js";
export { runAdapterConformance } from "./conformance/run-adapter-conformance.js";
export type {
  AdapterConformanceOptions,
  ConformanceTestAPI,
  ConformanceReply,
  ConformanceErrorCase,
  ExpectedToolCall,
  WireSummary,
} from "./conformance/adapter-conformance-options.js";
export { startReplayServer, type ReplayServer, type ReplayResponse, type ReplayedRequest, type ReplayStep } from "./conformance/replay-server.js";

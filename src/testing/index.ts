/**
 * `ScriptedChatModel` and its steps, record and replay, vitest matchers and the adapter conformance suite.
 * @module keelson/testing
 */
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
export { RecordingChatModel, type RecordingChatModelOptions } from "./record-replay/recording-chat-model.js";
export { ReplayChatModel, type ReplayChatModelOptions } from "./record-replay/replay-chat-model.js";
export { CassetteError } from "./record-replay/cassette-error.js";
export {
  readCassette,
  redactSecrets,
  type Cassette,
  type CassetteInteraction,
  type CassetteSettings,
} from "./record-replay/cassette.js";
export { keelsonMatchers, type KeelsonMatchers } from "./matchers.js";
export { runAdapterConformance } from "./conformance/run-adapter-conformance.js";
export { conformanceCases, type ConformanceCaseId } from "./conformance/conformance-cases.js";
export type {
  AdapterConformanceOptions,
  ConformanceTestAPI,
  ConformanceIt,
  ConformanceReply,
  ConformanceErrorCase,
  ExpectedToolCall,
  WireSummary,
} from "./conformance/adapter-conformance-options.js";
export {
  startReplayServer,
  type ReplayServerOptions,
  type ReplayServer,
  type ReplayResponse,
  type ReplayedRequest,
  type ReplayStep,
} from "./conformance/replay-server.js";

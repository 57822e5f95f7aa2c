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

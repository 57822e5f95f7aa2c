import type {
  ConverseCommandInput,
  InferenceConfiguration,
  ToolChoice,
  ToolConfiguration,
} from "@aws-sdk/client-bedrock-runtime";
import type { ProviderInput, ProviderToolChoice } from "../../core/input.js";
import type { BedrockModelProfile } from "./bedrock-model-profiles.js";
import { convertToBedrockMessages } from "./convert-to-bedrock-messages.js";
import type { Message } from "../../core/messages.js";
import { carriesNoContent, placeCachePoints } from "../../core/prompt-cache/place-cache-points.js";

/**
 * Messages Converse takes no `cachePoint` after: a tool result (a `cachePoint` beside `toolResult`
 * blocks fails on some models), and one that sends no block a point can follow.
 */
function refusesCachePoint(message: Message): boolean {
  return message.role === "tool" || carriesNoContent(message);
}

const jsonInstruction = "Answer with only a JSON value, and nothing else.";

/**
 * One Converse (or ConverseStream) request body from what the base class settled. Absent input
 * fields are not sent; `toolConfig` only travels with tools (Converse has no tool_choice "none").
 * `providerOptions` are merged last, one level deep (`additionalModelRequestFields: { … }` adds
 * to keelson's own fields).
 */
export function buildConverseRequest(
  modelId: string,
  input: ProviderInput,
  profile: BedrockModelProfile,
): ConverseCommandInput {
  const withTools = input.tools !== undefined && input.tools.length > 0 && input.toolChoice !== "none";
  const points =
    input.promptCache === "auto" && profile.promptCache
      ? placeCachePoints(input.messages, { tools: withTools, refuses: refusesCachePoint })
      : undefined;
  const cachePoints = new Set([points?.system, points?.message].filter((index) => index !== undefined));
  const { system, messages } = convertToBedrockMessages(input.messages, { toolBlocks: withTools, cachePoints });
  const request: ConverseCommandInput = { modelId, messages };

  if (input.responseFormat?.type === "json") system.push({ text: jsonInstruction });
  if (system.length > 0) request.system = system;

  const { maxTokens, temperature, topP, stop, topK } = input.parameters;
  const inferenceConfig: InferenceConfiguration = {};
  if (maxTokens !== undefined) inferenceConfig.maxTokens = maxTokens;
  if (temperature !== undefined) inferenceConfig.temperature = temperature;
  if (topP !== undefined) inferenceConfig.topP = topP;
  if (stop !== undefined && stop.length > 0) inferenceConfig.stopSequences = stop;
  if (Object.keys(inferenceConfig).length > 0) request.inferenceConfig = inferenceConfig;
  if (topK !== undefined && profile.topK) request.additionalModelRequestFields = profile.topK(topK) as never;

  if (withTools) {
    const toolConfig: ToolConfiguration = {
      tools: input.tools!.map((tool) => ({
        toolSpec: {
          name: tool.name,
          // ToolSpecification.description takes 1 character or more: a blank one is none.
          ...(tool.description === undefined || tool.description.trim() === ""
            ? {}
            : { description: tool.description }),
          inputSchema: { json: tool.parameters as never },
        },
      })),
    };
    if (points?.tools) toolConfig.tools!.push({ cachePoint: { type: "default" } });
    const toolChoice = toBedrockToolChoice(input.toolChoice);
    if (toolChoice) toolConfig.toolChoice = toolChoice;
    request.toolConfig = toolConfig;
  }

  if (input.responseFormat?.type === "json-schema") {
    request.outputConfig = {
      textFormat: {
        type: "json_schema",
        structure: {
          jsonSchema: { name: input.responseFormat.name, schema: JSON.stringify(input.responseFormat.schema) },
        },
      },
    };
  }
  return mergeProviderOptions(request, input.providerOptions);
}

function toBedrockToolChoice(choice: ProviderToolChoice | undefined): ToolChoice | undefined {
  if (choice === undefined || choice === "none") return undefined;
  if (choice === "auto") return { auto: {} };
  if (choice === "required") return { any: {} };
  return { tool: { name: choice.name } };
}

function mergeProviderOptions(
  request: ConverseCommandInput,
  options: Record<string, unknown> | undefined,
): ConverseCommandInput {
  if (!options) return request;
  const merged: Record<string, unknown> = { ...request };
  for (const [key, value] of Object.entries(options)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged as unknown as ConverseCommandInput;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import type { ProviderInput } from "../input.js";
import type { Message } from "../messages.js";
import type { PreparedCall } from "./prepare-call.js";

/**
 * What the adapter is sent for one attempt: the call's plan on the wire, keelson's instructions in
 * the system message, and any temporary repair guidance after the caller's messages.
 */
export function providerInput(call: PreparedCall, guidance: readonly Message[], signal: AbortSignal): ProviderInput {
  const { plan } = call;
  const input: ProviderInput = {
    messages: withInstructions(call.messages, call.instructions, guidance),
    parameters: call.parameters,
    signal,
  };
  if (plan.tools) input.tools = plan.tools;
  if (plan.toolChoice) input.toolChoice = plan.toolChoice;
  const responseFormat = plan.responseFormat ?? call.responseFormat;
  if (responseFormat) input.responseFormat = responseFormat;
  if (plan.tools && plan.tools.length > 0 && plan.toolChoice !== "none") input.parallelToolCalls = call.parallel;
  if (call.input.providerOptions) input.providerOptions = call.input.providerOptions;
  return input;
}

function withInstructions(messages: Message[], instructions: string[], guidance: readonly Message[]): Message[] {
  if (instructions.length === 0 && guidance.length === 0) return messages;
  const result = [...messages, ...guidance];
  if (instructions.length > 0) {
    const instruction = instructions.join("\n\n");
    const first = result[0];
    if (first?.role === "system") result[0] = { role: "system", content: `${first.content}\n\n${instruction}` };
    else result.unshift({ role: "system", content: instruction });
  }
  return result;
}

import type { ScriptedStep } from "../../src/testing/index.js";
import { rawStep, toolCallStep } from "../../src/testing/index.js";

/**
 * The capability profiles a run is tested under: native tool calls, and the two fallback rungs
 * (the tool union as a response format, and as a prompt) that a model without tool_choice forces.
 */
export const runProfiles = [
  { rung: "native", options: {} },
  { rung: "response-format", options: { toolChoiceSupport: new Set<never>() } },
  { rung: "prompt", options: { toolChoiceSupport: new Set<never>(), supportsStructuredOutput: false } },
] as const;

export type RunProfile = (typeof runProfiles)[number];

/**
 * One call as the model writes it under a profile: a native call, or the tool union's JSON (the
 * union rungs need `toolChoice: "required"` on the run; the call's id is then generated).
 */
export function callStep(profile: RunProfile, name: string, args: Record<string, unknown>, id?: string): ScriptedStep {
  if (profile.rung === "native") return toolCallStep(name, args, id === undefined ? {} : { id });
  return rawStep(JSON.stringify({ name, parameters: args }));
}

/** The answer under a profile: text, or (on the union rungs, where a call is required) a call to the answer tool. */
export function answerStep(profile: RunProfile, summary: string): ScriptedStep {
  if (profile.rung === "native") return rawStep(summary);
  return rawStep(JSON.stringify({ name: "answer", parameters: { summary } }));
}

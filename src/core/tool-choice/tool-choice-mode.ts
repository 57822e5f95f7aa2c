import type { ToolChoice } from "../input.js";

/** The tool_choice values a provider may honour; `single` is "call this one tool". */
export type ToolChoiceMode = "auto" | "none" | "required" | "single";

export const allToolChoiceModes: readonly ToolChoiceMode[] = ["auto", "none", "required", "single"];

export type NormalizedToolChoice = { mode: "auto" | "none" | "required" } | { mode: "single"; toolName: string };

export function normalizeToolChoice(choice: ToolChoice | undefined): NormalizedToolChoice {
  if (choice === undefined || choice === "auto") return { mode: "auto" };
  if (choice === "none" || choice === "required") return { mode: choice };
  if (choice !== null && typeof choice === "object" && typeof choice.name === "string") {
    return { mode: "single", toolName: choice.name };
  }
  throw new TypeError(
    `Invalid toolChoice ${JSON.stringify(choice)}: use "auto", "none", "required", a tool, or { type: "tool", name }.`,
  );
}

export function toToolChoiceSupport(modes: Iterable<ToolChoiceMode>): Set<ToolChoiceMode> {
  const support = new Set<ToolChoiceMode>();
  for (const mode of modes) {
    if (!allToolChoiceModes.includes(mode)) {
      throw new TypeError(
        `Invalid toolChoiceSupport value ${JSON.stringify(mode)}: use "auto", "none", "required" or "single".`,
      );
    }
    support.add(mode);
  }
  return support;
}

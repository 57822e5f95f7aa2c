import type { ChatModelOptions } from "../core/model/chat-model-options.js";

/** A capability profile: a name, and the constructor options that put a model on it. */
export interface EvalProfile {
  name: string;
  /** JSON-serialisable constructor options (`toolChoiceSupport` as a list), given to the model when it is built. */
  options: ChatModelOptions & { toolChoiceSupport?: ("auto" | "none" | "required" | "single")[] };
}

/** The three rungs a forced tool call can take, each forced through the capability options. */
export const builtinProfiles = {
  /** The provider's own tool calling, every tool_choice value sent as is. */
  native: { name: "native", options: { toolChoiceSupport: ["auto", "none", "required", "single"] } },
  /** A forced call goes out as the tool-union JSON schema in the response format. */
  "response-format": { name: "response-format", options: { toolChoiceSupport: [] } },
  /** A forced call goes out as the tool-union schema in a system instruction. */
  prompt: { name: "prompt", options: { toolChoiceSupport: [], supportsStructuredOutput: false } },
} as const satisfies Record<string, EvalProfile>;

export type BuiltinProfileName = keyof typeof builtinProfiles;

/** Profile names or custom profiles as `EvalProfile`s, checked. @default all three built-in profiles */
export function resolveProfiles(profiles: readonly (string | EvalProfile)[] | undefined): EvalProfile[] {
  const list = profiles ?? Object.keys(builtinProfiles);
  if (list.length === 0) throw new TypeError("profiles is empty: name at least one (native, response-format, prompt).");
  const resolved = list.map((profile) => {
    if (typeof profile !== "string") {
      if (typeof profile?.name !== "string" || profile.name === "" || typeof profile.options !== "object") {
        throw new TypeError("A custom profile is { name, options } with the constructor options that select it.");
      }
      return { name: profile.name, options: copyOptions(profile.options) };
    }
    const builtin = (builtinProfiles as Record<string, EvalProfile>)[profile];
    if (!Object.prototype.hasOwnProperty.call(builtinProfiles, profile) || builtin === undefined) {
      throw new TypeError(
        `Unknown profile '${profile}': use ${Object.keys(builtinProfiles).join(", ")}, or a custom { name, options }.`,
      );
    }
    return { name: builtin.name, options: copyOptions(builtin.options as EvalProfile["options"]) };
  });
  const names = resolved.map((profile) => profile.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new TypeError(`Profile '${repeated}' is named twice.`);
  return resolved;
}

/** A copy of a profile's options of its own (a cache or other instance in them is kept as it is, not cloned). */
export function copyOptions(options: EvalProfile["options"]): EvalProfile["options"] {
  const copy = { ...options };
  if (options.toolChoiceSupport !== undefined) copy.toolChoiceSupport = [...options.toolChoiceSupport];
  return copy;
}

import type { ProviderTool } from "../input.js";
import type { AnyTool } from "../tool.js";
import { toolFrom } from "../define-tool.js";
import type { Validator } from "./validate.js";
import { validatorFor } from "./validate.js";

/** A tool as a call uses it: its provider form, and the validator of its arguments. */
export type ToolEntry = { tool: ProviderTool; validate: Validator };

/** A call's tools, defined: as sent to the provider, and by name with their validators. Never changed once made. */
export interface ToolIndex {
  readonly providerTools: readonly ProviderTool[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
}

const noTools: ToolIndex = { providerTools: [], toolsByName: new Map() };

/**
 * A call's tools, defined: as sent to the provider, and by name with the validators of their
 * arguments (each schema compiled once, see validatorFor). Throws a TypeError for two tools of one name.
 */
export function indexTools(given: readonly AnyTool[] | undefined): ToolIndex {
  if (given === undefined || given.length === 0) return noTools;
  const providerTools: ProviderTool[] = [];
  const toolsByName = new Map<string, ToolEntry>();
  for (const definition of given) {
    const tool = toolFrom(definition);
    if (toolsByName.has(tool.name))
      throw new TypeError(`Two tools are named '${tool.name}': tool names must be unique.`);
    const providerTool: ProviderTool =
      tool.description === undefined
        ? { name: tool.name, parameters: tool.parameters }
        : { name: tool.name, description: tool.description, parameters: tool.parameters };
    providerTools.push(providerTool);
    toolsByName.set(tool.name, { tool: providerTool, validate: validatorFor(tool.inputSchema) });
  }
  return { providerTools, toolsByName };
}

import type { ProviderTool } from "../input.js";
import type { Validator } from "../schema/validate.js";
import { validatorFor } from "../schema/validate.js";
import type { Tool, ToolDefinition } from "../tool.js";
import { defineTool } from "../tool.js";

export type ToolEntry = { tool: ProviderTool; validate: Validator };

/** A call's tools, defined: as sent to the provider, and by name with their validators. Never changed once made. */
export interface ToolIndex {
  readonly providerTools: readonly ProviderTool[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
}

/** An index and what it was made from: each given tool and the fields it was read with. */
interface IndexedTools extends ToolIndex {
  readonly given: readonly (Tool | ToolDefinition)[];
  readonly fields: readonly ToolFields[];
}

interface ToolFields {
  name: unknown;
  description: unknown;
  inputSchema: unknown;
  parameters: unknown;
}

const noTools: ToolIndex = { providerTools: [], toolsByName: new Map() };

/**
 * The last index made from each tools array. Agents pass the same array call after call; its index
 * is reused while the array holds the same tools with the same fields (an array or a tool changed
 * in place is indexed again). Indexing one tool cost a call ~4k instructions in code V8 had not
 * optimised yet; finding and checking the index costs about half that.
 */
const indexes = new WeakMap<readonly (Tool | ToolDefinition)[], IndexedTools>();

export function indexTools(given: readonly (Tool | ToolDefinition)[] | undefined): ToolIndex {
  if (given === undefined || given.length === 0) return noTools;
  const known = indexes.get(given);
  if (known !== undefined && unchanged(known, given)) return known;
  const made = buildIndex(given);
  indexes.set(given, made);
  return made;
}

function unchanged(known: IndexedTools, given: readonly (Tool | ToolDefinition)[]): boolean {
  if (known.given.length !== given.length) return false;
  for (let index = 0; index < given.length; index++) {
    const tool = given[index]!;
    const fields = known.fields[index]!;
    if (
      tool !== known.given[index] ||
      tool.name !== fields.name ||
      tool.description !== fields.description ||
      tool.inputSchema !== fields.inputSchema ||
      (tool as Partial<Tool>).parameters !== fields.parameters
    ) {
      return false;
    }
  }
  return true;
}

function buildIndex(given: readonly (Tool | ToolDefinition)[]): IndexedTools {
  const providerTools: ProviderTool[] = [];
  const toolsByName = new Map<string, ToolEntry>();
  const fields: ToolFields[] = [];
  for (let index = 0; index < given.length; index++) {
    const definition = given[index]!;
    const tool = defineTool(definition);
    if (toolsByName.has(tool.name))
      throw new TypeError(`Two tools are named '${tool.name}': tool names must be unique.`);
    const providerTool = toProviderTool(tool);
    providerTools.push(providerTool);
    toolsByName.set(tool.name, { tool: providerTool, validate: validatorFor(tool.inputSchema) });
    const { name, description, inputSchema } = definition;
    fields.push({ name, description, inputSchema, parameters: (definition as Partial<Tool>).parameters });
  }
  return { providerTools, toolsByName, given: given.slice(), fields };
}

function toProviderTool(tool: Tool): ProviderTool {
  return tool.description === undefined
    ? { name: tool.name, parameters: tool.parameters }
    : { name: tool.name, description: tool.description, parameters: tool.parameters };
}

import type { ProviderTool } from "../input.js";
import type { AnyTool } from "../tool.js";
import { toolFrom } from "../tool.js";
import type { Validator } from "./validate.js";
import { validatorFor } from "./validate.js";

/** A tool as a call uses it: its provider form, and the validator of its arguments. */
export type ToolEntry = { tool: ProviderTool; validate: Validator };

/** A call's tools, defined: as sent to the provider, and by name with their validators. Never changed once made. */
export interface ToolIndex {
  readonly providerTools: readonly ProviderTool[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
}

/** An index and what it was made from: each given tool, and the fields it was read with. */
interface KeptIndex extends ToolIndex {
  readonly given: readonly AnyTool[];
  readonly fields: readonly ToolFields[];
}

interface ToolFields {
  name: unknown;
  /** OpenAI's form keeps the fields under `function`. */
  function: unknown;
  description: unknown;
  inputSchema: unknown;
  parameters: unknown;
}

const noTools: ToolIndex = { providerTools: [], toolsByName: new Map() };

/**
 * The index last made from each tools array, reused while the array holds the same tools with the
 * same fields (an array or a tool changed in place is indexed again): agents send one array call
 * after call. Earns 4 % of Ollama's tools-100 call (2206k → 2112k instructions, npm run bench:instructions).
 */
const indexes = new WeakMap<readonly AnyTool[], KeptIndex>();

/**
 * A call's tools, defined and validated once: as sent to the provider, and by name with their
 * validators. Throws a TypeError for two tools of one name.
 */
export function indexTools(given: readonly AnyTool[] | undefined): ToolIndex {
  if (given === undefined || given.length === 0) return noTools;
  const kept = indexes.get(given);
  if (kept !== undefined && unchanged(kept, given)) return kept;
  const made = buildIndex(given);
  indexes.set(given, made);
  return made;
}

function unchanged(kept: KeptIndex, given: readonly AnyTool[]): boolean {
  if (kept.given.length !== given.length) return false;
  for (let index = 0; index < given.length; index++) {
    const tool = given[index]!;
    const fields = kept.fields[index]!;
    if (
      tool !== kept.given[index] ||
      field(tool, "name") !== fields.name ||
      field(tool, "description") !== fields.description ||
      field(tool, "function") !== fields.function ||
      field(tool, "inputSchema") !== fields.inputSchema ||
      field(tool, "parameters") !== fields.parameters
    )
      return false;
  }
  return true;
}

/** A field of a tool in any of its shapes (absent: undefined). */
const field = (tool: AnyTool, key: keyof ToolFields): unknown => (tool as unknown as Record<string, unknown>)[key];

function buildIndex(given: readonly AnyTool[]): KeptIndex {
  const providerTools: ProviderTool[] = [];
  const toolsByName = new Map<string, ToolEntry>();
  const fields: ToolFields[] = [];
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
    fields.push({
      name: field(definition, "name"),
      function: field(definition, "function"),
      description: field(definition, "description"),
      inputSchema: field(definition, "inputSchema"),
      parameters: field(definition, "parameters"),
    });
  }
  return { providerTools, toolsByName, given: given.slice(), fields };
}

import { lazyRequire } from "../loading/lazy-require.js";
import type { JSONSchema } from "./json-schema.js";

export interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}
export type CompiledCheck = ((value: unknown) => boolean) & { errors?: AjvIssue[] | null };
interface AjvLike {
  compile(schema: JSONSchema): CompiledCheck;
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvLike;
const loadAjv = lazyRequire<{ default: AjvConstructor }>("ajv", "validating against JSON Schema");
const loadAjv2020 = lazyRequire<{ default: AjvConstructor }>("ajv/dist/2020", "validating against JSON Schema");

// addUsedSchema: false — a schema's $id is not registered, so the same tool listed afresh (an MCP
// server's, each turn) or two tools sharing an $id compile on their own instead of colliding.
const ajvOptions = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false };

/**
 * Compiles an instance takes before the next compile gets a fresh one. An Ajv instance keeps every
 * schema it compiled, and its validator, for as long as it lives (its cache and its code scope,
 * which no option turns off), so one instance for the process grows with every tools array an
 * agent builds afresh. A retired instance is collected once the validators it made are.
 */
export const compilesPerInstance = 256;

interface Compiler {
  ajv: AjvLike;
  compiles: number;
}
let draft07: Compiler | undefined;
let draft2020: Compiler | undefined;

/** Compiles a JSON Schema (draft-07, or 2020-12 when `dialect` says so — MCP's default, where `items` and `prefixItems` differ). */
export function compileJSONSchema(schema: JSONSchema, dialect: unknown): CompiledCheck {
  const is2020 = typeof dialect === "string" && dialect.includes("2020-12");
  let compiler = is2020 ? draft2020 : draft07;
  if (compiler === undefined || compiler.compiles >= compilesPerInstance) {
    compiler = { ajv: new (is2020 ? loadAjv2020() : loadAjv()).default(ajvOptions), compiles: 0 };
    if (is2020) draft2020 = compiler;
    else draft07 = compiler;
  }
  compiler.compiles++;
  return compiler.ajv.compile(schema);
}

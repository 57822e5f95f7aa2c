import { lazyRequire } from "../../internal/lazy-require.js";
import type { JSONSchema } from "./json-schema.js";
import type { SchemaInput, ZodV3Like } from "./schema-input.js";
import { schemaKind } from "./schema-input.js";

export type ValidationResult =
  | { success: true; value: unknown }
  | { success: false; issues: string[] };

export type Validator = (value: unknown) => ValidationResult;

interface AjvLike {
  compile(schema: JSONSchema): ((value: unknown) => boolean) & {
    errors?: { instancePath: string; message?: string }[] | null;
  };
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvLike;
const loadAjv = lazyRequire<{ default: AjvConstructor }>("ajv", "validating against JSON Schema");

let ajv: AjvLike | undefined;
const validators = new WeakMap<object, Validator>();

/** A validator for a schema, built once per schema object and reused. */
export function validatorFor(schema: SchemaInput): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = buildValidator(schema);
    validators.set(schema, validator);
  }
  return validator;
}

function buildValidator(schema: SchemaInput): Validator {
  if (schemaKind(schema) === "json-schema") return jsonSchemaValidator(schema as JSONSchema);
  const zodSchema = schema as ZodV3Like;
  return (value) => {
    const result = zodSchema.safeParse(value);
    if (result.success) return { success: true, value: result.data };
    return { success: false, issues: zodIssues(result.error) };
  };
}

function zodIssues(error: unknown): string[] {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] })?.issues;
  if (!Array.isArray(issues)) return [String(error)];
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map((key) => (typeof key === "number" ? `[${key}]` : String(key))).join(".");
}

function jsonSchemaValidator(schema: JSONSchema): Validator {
  const { $schema: _ignored, ...body } = schema;
  let check: ReturnType<AjvLike["compile"]>;
  try {
    ajv ??= new (loadAjv().default)({ strict: false, allErrors: true, validateFormats: false });
    check = ajv.compile(body);
  } catch (error) {
    throw new TypeError(`Invalid JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  return (value) => {
    if (check(value)) return { success: true, value };
    const issues = (check.errors ?? []).map(
      (issue) => `${issue.instancePath === "" ? "(root)" : issue.instancePath}: ${issue.message ?? "is invalid"}`,
    );
    return { success: false, issues };
  };
}

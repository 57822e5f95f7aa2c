import type { AjvIssue, CompiledCheck } from "./compile-json-schema.js";
import { compileJSONSchema } from "./compile-json-schema.js";
import { rootAsDefinition } from "./root-refs.js";
import type { JSONSchema } from "./json-schema.js";
import type { SchemaInput, ZodV3Like } from "./schema-input.js";
import { schemaKind } from "./schema-input.js";
import { toJSONSchema } from "./to-json-schema.js";

export type ValidationResult = { success: true; value: unknown } | { success: false; issues: string[] };

export type Validator = (value: unknown) => ValidationResult;

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
  // The JSON Schema as keelson sent it (read once per schema object), never one changed in place since.
  if (schemaKind(schema) === "json-schema") return jsonSchemaValidator(toJSONSchema(schema));
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
  const { $schema: dialect, ...body } = schema;
  let check: CompiledCheck;
  try {
    // Ajv (its root not registered: addUsedSchema off) cannot resolve `#`: a schema recursing to its root is compiled from its definitions.
    const moved = rootAsDefinition(body, "root");
    check = compileJSONSchema(
      moved
        ? {
            $ref: moved.ref,
            $defs: moved.$defs,
            ...(moved.definitions === undefined ? {} : { definitions: moved.definitions }),
          }
        : body,
      dialect,
    );
  } catch (error) {
    throw new TypeError(`Invalid JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  return (value) => {
    if (check(value)) return { success: true, value };
    const issues = (check.errors ?? []).map(
      (issue) =>
        `${issue.instancePath === "" ? "(root)" : issue.instancePath}: ${issue.message ?? "is invalid"}${detail(issue)}`,
    );
    return { success: false, issues };
  };
}

/** What ajv's message leaves out: the property that is not allowed, the values that are. */
function detail({ keyword, params }: AjvIssue): string {
  if (keyword === "additionalProperties" && typeof params?.additionalProperty === "string") {
    return ` ('${params.additionalProperty}')`;
  }
  if (keyword === "unevaluatedProperties" && typeof params?.unevaluatedProperty === "string") {
    return ` ('${params.unevaluatedProperty}')`;
  }
  if (keyword === "enum" && Array.isArray(params?.allowedValues)) {
    return `: ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return "";
}

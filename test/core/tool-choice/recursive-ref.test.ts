import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, toolUnionSchema } from "../../../src/index.js";

interface TreeNode {
  name: string;
  children: TreeNode[];
}
// zod v4 writes the recursion back to the root as { "$ref": "#" }.
const node: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  get children() {
    return z.array(node);
  },
});
const tree = defineTool({ name: "tree", inputSchema: node });

describe("toolUnionSchema", () => {
  it.each([
    ["bare", { wrap: false }, (call: unknown) => call],
    ["wrapped", { wrap: true }, (call: unknown) => ({ item: call })],
  ])(
    "should keep a tool's recursive '#' reference its own when the tool moves into the %s union",
    (_name, options, shape) => {
      expect(tree.parameters).toMatchObject({ properties: { children: { items: { $ref: "#" } } } });
      const union = toolUnionSchema([tree], options);
      const validate = new Ajv({ strict: false }).compile(union);
      const call = { name: "tree", parameters: { name: "root", children: [{ name: "leaf", children: [] }] } };
      expect(validate(shape(call))).toBe(true);
    },
  );
});

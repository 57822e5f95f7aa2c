import { describe, expect, it } from "vitest";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

/** A tool that takes anything, so each test sees exactly what the parser read. */
const record = defineTool({ name: "record", inputSchema: { type: "object" } });
const forced = { messages: [user("q")], tools: [record], toolChoice: "required" as const };

describe("Python-style tool calls written as text", () => {
  describe.each(callModes)("through %s", (mode) => {
    const argsOf = async (text: string) => {
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      return (await runCall(model, forced, mode)).output.toolCalls[0]!.args;
    };

    it("should read every literal of the subset: both quotes, escapes, numbers, constants, lists, tuples, dicts", async () => {
      const args = await argsOf(
        String.raw`[record(a='it\'s', b="say \"hi\"\n", c=-3, d=2.5e3, e=1_000, f=True, g=False, h=None, i=[1, 'x', [2]], j=(1, 2), k={'nested': {"deep": -0.5}, 7: 'seven'}, l="caf\u00e9 \x41", m='''multi
line''', n="joined " 'literals', o=[], p={},)]`,
      );
      expect(args).toEqual({
        a: "it's",
        b: 'say "hi"\n',
        c: -3,
        d: 2500,
        e: 1000,
        f: true,
        g: false,
        h: null,
        i: [1, "x", [2]],
        j: [1, 2],
        k: { nested: { deep: -0.5 }, "7": "seven" },
        l: "café A",
        m: "multi\nline",
        n: "joined literals",
        o: [],
        p: {},
      });
    });

    it("should read JSON's true, false and null where a small model mixes them in", async () => {
      expect(await argsOf("[record(a=true, b=null, c=false)]")).toEqual({ a: true, b: null, c: false });
    });

    it("should read a call printed inside a tool_code fence, and a bare call with no list around it", async () => {
      expect(await argsOf('Sure.\n```tool_code\nprint(record(city="Paris"))\n```')).toEqual({ city: "Paris" });
      expect(await argsOf('record(city="Oslo")')).toEqual({ city: "Oslo" });
    });

    it("should keep __proto__ out of the arguments and away from any prototype", async () => {
      const args = await argsOf("[record(__proto__={'polluted': True}, a={'__proto__': {'polluted': True}, 'ok': 1})]");
      expect(args).toEqual({ a: { ok: 1 } });
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it.each([
      ["a positional argument", "[record('Paris')]"],
      ["a variable", "[record(city=paris)]"],
      ["an expression", "[record(n=1 + 2)]"],
      ["a call as a value", "[record(cmd=__import__('os').system('echo pwned'))]"],
      ["an unclosed string", "[record(city='Paris)]"],
      ["an unclosed list", "[record(city='Paris')"],
      ["prose around a call", "I would call record(city='Paris') here."],
    ])("should not read %s as a call (nothing is evaluated), and re-ask", async (_what, text) => {
      const model = new ScriptedChatModel([rawStep(text), toolCallStep("record", { ok: true })]);
      const { output } = await runCall(model, forced, mode);
      expect(output.toolCalls[0]!.args).toEqual({ ok: true });
      expect(output.meta.attempts).toHaveLength(2);
    });

    it("should refuse values nested past the limit instead of recursing without end", async () => {
      const deep = `[record(a=${"[".repeat(100)}${"]".repeat(100)})]`;
      const model = new ScriptedChatModel([rawStep(deep), toolCallStep("record", { ok: true })]);
      const { output } = await runCall(model, forced, mode);
      expect(output.meta.attempts).toHaveLength(2);
    });
  });
});

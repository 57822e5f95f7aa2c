import { execFile } from "node:child_process";
import { promisify } from "node:util";
import EventEmitter from "eventemitter3";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel, streamStep, textStep } from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";

describe("ChatModel's emitter, made on first read", () => {
  it("should never load eventemitter3 for a model nobody listens to, and load it once someone does", async () => {
    const script = `
      const { createRequire } = await import("node:module");
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((path) => /node_modules\\/eventemitter3\\//.test(path));
      const { ScriptedChatModel, textStep } = await import("./src/testing/index.ts");
      await import("./src/index.ts");
      const model = new ScriptedChatModel([textStep("one"), textStep("two")]);
      await model.create({ messages: [{ role: "user", content: "hi" }] });
      await model.createStream({ messages: [{ role: "user", content: "hi" }] }).final();
      const before = loaded();
      model.emitter.on("finish", () => undefined);
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout)).toEqual({ before: false, after: true });
  });

  it("should be an eventemitter3 EventEmitter, the same one on every read", () => {
    const model = new ScriptedChatModel([]);
    expect(model.emitter).toBeInstanceOf(EventEmitter);
    expect(model.emitter).toBe(model.emitter);
  });

  it.each(callModes)("should tell a listener added while the call runs how the call ends (%s)", async (mode) => {
    const model = new ScriptedChatModel([textStep("late", { delayMs: 30 })]);
    const call = runCall(model, { messages: [user("hi")] }, mode);
    const seen: string[] = [];
    model.emitter.on("success", () => seen.push("success"));
    model.emitter.on("finish", () => seen.push("finish"));
    await call;
    expect(seen).toEqual(["success", "finish"]);
  });

  it("should give a newToken listener added mid-stream the chunks from then on", async () => {
    const model = new ScriptedChatModel([streamStep(["a", "b", "c"])]);
    const tokens: string[] = [];
    const iterator = model.createStream({ messages: [user("hi")] })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ type: "text-delta", text: "a" });
    model.emitter.on("newToken", ({ chunk }) => {
      if (chunk.type === "text-delta") tokens.push(chunk.text);
    });
    while (!(await iterator.next()).done);
    expect(tokens).toEqual(["b", "c"]);
  });
});

import { afterEach, beforeEach, vi } from "vitest";
import type { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import type { ChatModelInput, ChatModelOutput } from "../../../src/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { startLoopbackServer } from "../../support/loopback-server.js";

/** An Azure model's two entry points, each to the output. */
export const azureModes = [
  { mode: "create", run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => subject.create(input) },
  {
    mode: "createStream",
    run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => subject.createStream(input).final(),
  },
] as const satisfies readonly {
  mode: string;
  run: (subject: AzureOpenAIChatModel, input: ChatModelInput) => Promise<ChatModelOutput>;
}[];

/**
 * A fresh loopback server for each test of the file that calls it (set up by `prepare`, e.g. with
 * its answer), closed after it with the environment the test stubbed; the handle reaches the current one.
 */
export function useAzureServer(prepare: (server: LoopbackServer) => void = () => undefined): {
  readonly server: LoopbackServer;
} {
  let current: LoopbackServer | undefined;
  beforeEach(async () => {
    current = await startLoopbackServer();
    prepare(current);
  });
  afterEach(async () => {
    await current?.close();
    vi.unstubAllEnvs();
  });
  return {
    get server() {
      if (!current) throw new Error("The loopback server starts in beforeEach: use it inside a test.");
      return current;
    },
  };
}

// The OpenAI adapter's errors a new user hit (issue 23), through the real SDK on loopback: each
// message names the URL, the cause and the fix.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderError, defineTool, type FallbackEvent } from "../../../src/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";

const server = useLoopbackServer();
const messages = [{ role: "user" as const, content: "hi" }];

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("OpenAIChatModel errors that explain themselves", () => {
  it("should name the URL and 'connection refused' when nothing listens at baseURL, with the fix", async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const model = new OpenAIChatModel("gpt-4o", { baseURL, apiKey: "sk-test", retry: { maxRetries: 0 } });
    const error = await rejection(model.create({ messages }));
    expect(error).toMatchObject({ reason: "network", code: "ECONNREFUSED" });
    expect(error.message).toContain(`could not reach the API at ${baseURL}: connection refused`);
    expect(error.message).toContain("Start the server, or point baseURL at the port it listens on.");
    expect(error.message).not.toContain("Connection error.");
  });

  it("should say a 404 that is not an API error means a wrong URL or path, not the model, and show the URL called", async () => {
    server.handle((_request, response) => {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("404 page not found");
    });
    // baseURL without /v1: the usual mistake.
    const model = new OpenAIChatModel("llama3.1", { baseURL: server.url, apiKey: "sk-test" });
    const error = await rejection(model.create({ messages }));
    expect(error).toMatchObject({ statusCode: 404, reason: "not-found", isRetryable: false });
    expect(error.message).toContain(`${server.url}/chat/completions answered 404 with "404 page not found"`);
    expect(error.message).toContain("the URL or path is wrong, not the model");
    expect(error.message).toContain("ends in /v1");
    expect(error.message).not.toContain("Check the model id");
    expect(server.requests).toHaveLength(1);
  });

  it("should still blame the model id for a 404 that is the API's own error", async () => {
    server.handle((_request, response) => {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: {
            message: "The model `gpt-5x` does not exist",
            type: "invalid_request_error",
            code: "model_not_found",
          },
        }),
      );
    });
    const model = new OpenAIChatModel("gpt-5x", { baseURL: `${server.url}/v1`, apiKey: "sk-test" });
    const error = await rejection(model.create({ messages }));
    expect(error.message).toContain("does not exist");
    expect(error.message).not.toContain("the URL or path is wrong");
  });

  it("should name the custom baseURL as the cause of a forced call's fallback, and toolChoiceSupport as the fix", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 0,
          model: "m",
          choices: [
            {
              index: 0,
              finish_reason: "stop",
              message: {
                role: "assistant",
                content: JSON.stringify({ name: "get_weather", arguments: { city: "Oslo" } }),
              },
            },
          ],
        }),
      );
    });
    const getWeather = defineTool({ name: "get_weather", inputSchema: z.object({ city: z.string() }) });
    const baseURL = `${server.url}/v1`;
    const model = new OpenAIChatModel("qwen3", { baseURL, apiKey: "sk-test" });
    const reasons: string[] = [];
    model.emitter.on("fallback", (event: FallbackEvent) => reasons.push(event.reason));
    const output = await model.create({ messages, tools: [getWeather], toolChoice: "required" });
    expect(output.meta.toolChoice).toBe("response-format");
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain(`the custom baseURL ${baseURL} is not OpenAI's`);
    expect(reasons[0]).toContain(
      `new OpenAIChatModel("qwen3", { baseURL: "${baseURL}", toolChoiceSupport: ["auto","none","single","required"] })`,
    );
    // Told that the server honours 'required', the model sends it natively and gives no such reason.
    const told = new OpenAIChatModel("qwen3", { baseURL, apiKey: "sk-test", toolChoiceSupport: ["auto", "required"] });
    expect(told.toolChoiceSupport.has("required")).toBe(true);
  });
});

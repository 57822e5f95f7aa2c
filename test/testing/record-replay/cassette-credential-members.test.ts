import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordingChatModel, ScriptedChatModel, redactSecrets, streamStep } from "../../../src/testing/index.js";

const azureKey = "0123456789abcdef0123456789abcdef";
// An Entra ID access token is a JWT.
const entraToken =
  "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL2NvZ25pdGl2ZXNlcnZpY2VzLmF6dXJlLmNvbSJ9.c2lnbmF0dXJlLXBhcnQ";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-cassettes-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("redactSecrets", () => {
  it("should scrub an api-key or authorization member's value, not only text that names the key", () => {
    const scrubbed = JSON.stringify(
      redactSecrets({ headers: { "api-key": azureKey, authorization: entraToken }, apiKey: azureKey }),
    );
    expect(scrubbed).not.toContain(azureKey);
    expect(scrubbed).not.toContain(entraToken);
  });

  it("should scrub a bare Entra ID (JWT) access token", () => {
    expect(redactSecrets({ note: `token ${entraToken} expired` }).note).not.toContain(entraToken);
  });
});

describe("RecordingChatModel", () => {
  it("should write no Azure api-key held in a raw response's headers to the cassette", async () => {
    const cassette = join(folder, "azure.json");
    const live = new ScriptedChatModel([
      streamStep([
        "ok",
        {
          type: "finish",
          finishReason: "stop",
          raw: { request: { headers: { "api-key": azureKey, Authorization: entraToken } } },
        },
      ]),
    ]);
    await new RecordingChatModel(live, { cassette })
      .createStream({ messages: [{ role: "user", content: "hi" }] })
      .final();
    const written = readFileSync(cassette, "utf8");
    expect(written).not.toContain(azureKey);
    expect(written).not.toContain(entraToken);
  });
});

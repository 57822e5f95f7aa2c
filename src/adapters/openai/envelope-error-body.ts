import type OpenAI from "openai";

/**
 * An error body as OpenAI shapes it, `{ error: { message, type, param, code } }`. Some compatible
 * servers (Cerebras) put those fields at the top level, where the SDK finds no message and reports
 * "400 status code (no body)": such a body goes into the envelope. Any other body is left as it came.
 */
export function envelopeErrorBody(body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body) || "error" in body) return body;
  return typeof (body as { message?: unknown }).message === "string" ? { error: body } : body;
}

const enveloping = new WeakMap<typeof OpenAI, typeof OpenAI>();

/** The SDK's client class, reading error bodies through `envelopeErrorBody` (one subclass per SDK copy). */
export function withEnvelopedErrors(Client: typeof OpenAI): typeof OpenAI {
  let Enveloping = enveloping.get(Client);
  if (!Enveloping) {
    Enveloping = class extends Client {
      protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers) {
        return super.makeStatusError(status, envelopeErrorBody(error) as object, message, headers);
      }
    };
    enveloping.set(Client, Enveloping);
  }
  return Enveloping;
}

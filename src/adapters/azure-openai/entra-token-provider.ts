import { ProviderError } from "../../core/errors/provider-error.js";

/**
 * The caller's Entra ID token provider, failing as a ProviderError (`authentication`, not retried:
 * `@azure/identity` retries on its own) that names the deployment, when it throws or gives no token.
 * The SDK wraps it in its own error; the OpenAI adapter's error mapping unwraps it.
 */
export function entraTokenProvider(
  provider: () => Promise<string>,
  where: { providerId: string; modelId: string },
): () => Promise<string> {
  const fail = (problem: string, cause?: unknown) =>
    new ProviderError(
      `${where.providerId} ${where.modelId}: the Entra ID token provider ${problem}. ` +
        "Check the credential it uses (az login, a managed identity, environment variables) and its role assignment (Cognitive Services OpenAI User).",
      { ...where, reason: "authentication", isRetryable: false, ...(cause === undefined ? {} : { cause }) },
    );
  return async () => {
    let token: unknown;
    try {
      token = await provider();
    } catch (error) {
      throw fail(`failed: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (typeof token !== "string" || token === "")
      throw fail(`returned ${token === "" ? "an empty string" : String(token)} instead of a token`);
    return token;
  };
}

import { ProviderError } from "../../core/errors/provider-error.js";
import { describeThrown } from "../../internal/describe-thrown.js";
import { noteIssuedCredential } from "../../internal/issued-credentials.js";

/**
 * The caller's Entra ID token provider, failing as a ProviderError (`authentication`, not retried:
 * `@azure/identity` retries on its own) that names the deployment, when it throws or gives no token.
 * The SDK wraps it in its own error; the OpenAI adapter's error mapping unwraps it. Each token
 * it gives is noted in `issued`, for error mapping to cut out as it cuts a static key.
 */
export function entraTokenProvider(
  provider: () => Promise<string>,
  where: { providerId: string; modelId: string },
  issued: string[] = [],
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
      throw fail(`failed: ${describeThrown(error)}`, error);
    }
    if (typeof token !== "string" || token === "")
      throw fail(`returned ${token === "" ? "an empty string" : typeof token} instead of a token`);
    noteIssuedCredential(issued, token);
    return token;
  };
}

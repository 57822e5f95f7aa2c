/** The credential fields an `@anthropic-ai/sdk` client exposes, seen structurally. */
interface AnthropicCredentialFields {
  apiKey?: unknown;
  authToken?: unknown;
}

/**
 * The credentials an Anthropic client sends, read from its public fields as they are now: its API
 * key (`x-api-key`; the SDK keeps the latest value of a key function there) and its bearer
 * `authToken`. The same for a client keelson built and one a caller passed as `client`.
 */
export function anthropicSecrets(client: AnthropicCredentialFields): string[] {
  return [client.apiKey, client.authToken].filter((value): value is string => typeof value === "string");
}

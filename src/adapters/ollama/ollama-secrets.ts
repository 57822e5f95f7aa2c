import type { Ollama } from "ollama";

/** Where an Ollama model's credentials come from: its headers, its host's user:password, a caller's client. */
export interface OllamaCredentialSources {
  headers: Record<string, string> | undefined;
  /** The Basic header made from the host's credentials. */
  hostAuthorization: string | undefined;
  client: Ollama | undefined;
}

/**
 * The credentials an Ollama model's requests carry, in each form a server or proxy could echo back:
 * the Authorization value, its token, a Basic header's user:password and password.
 */
export function ollamaSecrets(sources: OllamaCredentialSources): string[] {
  const clientHeaders = (sources.client as unknown as { config?: { headers?: unknown } } | undefined)?.config?.headers;
  const authorizations = [sources.hostAuthorization, authorizationOf(sources.headers), authorizationOf(clientHeaders)];
  return authorizations.flatMap((value) => (value === undefined ? [] : authorizationSecrets(value)));
}

/** The model's credentials and, read now as the SDK reads it per request, the `OLLAMA_API_KEY` it sends to ollama.com. */
export function secretsNow(secrets: readonly string[]): string[] {
  const apiKey = process.env.OLLAMA_API_KEY;
  return apiKey ? [...secrets, apiKey] : [...secrets];
}

function authorizationOf(headers: unknown): string | undefined {
  if (headers === null || typeof headers !== "object") return undefined;
  const entries =
    headers instanceof Headers
      ? [...headers]
      : Array.isArray(headers)
        ? (headers as [string, unknown][])
        : Object.entries(headers);
  const value = entries.find(([name]) => name.toLowerCase() === "authorization")?.[1];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** "Bearer abc" → it and "abc"; "Basic <base64>" → also the password it encodes. */
function authorizationSecrets(value: string): string[] {
  const space = value.indexOf(" ");
  if (space === -1) return [value];
  const token = value.slice(space + 1).trim();
  const secrets = [value, token];
  if (value.slice(0, space).toLowerCase() === "basic") {
    const decoded = Buffer.from(token, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon !== -1) secrets.push(decoded, decoded.slice(colon + 1));
  }
  return secrets;
}

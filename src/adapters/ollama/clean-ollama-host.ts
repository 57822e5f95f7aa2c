import { isIPv6 } from "node:net";

/**
 * A host as the `ollama` CLI and server read OLLAMA_HOST (envconfig.Host): spaces and quotes around
 * it dropped (`"gpu-box:11434"`, as a .env file or a compose file may leave it), and an IPv6 address
 * written without brackets (`::1`) bracketed. The SDK takes neither: it throws "Invalid URL" or
 * sends the quotes as part of the host name. Every other form is left as it is, for the SDK.
 */
export function cleanOllamaHost(host: string): string {
  const cleaned = host.trim().replace(/^["']+|["']+$/g, "").trim();
  return isIPv6(cleaned) ? `[${cleaned}]` : cleaned;
}

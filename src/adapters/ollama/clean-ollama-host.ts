/**
 * A host as the `ollama` CLI and server read OLLAMA_HOST (envconfig.Host): spaces and quotes around
 * it dropped (`"gpu-box:11434"`, as a .env file or a compose file may leave it), and an IPv6 address
 * written without brackets (`::1`) bracketed. The SDK takes neither: it throws "Invalid URL" or
 * sends the quotes as part of the host name. Every other form is left as it is, for the SDK.
 */
export function cleanOllamaHost(host: string): string {
  const cleaned = host
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .trim();
  return isBareIPv6(cleaned) ? `[${cleaned}]` : cleaned;
}

/** An IPv6 address as URL's own parser reads one (node:net's isIPv6 would cost its import, ~1.5 ms). */
function isBareIPv6(host: string): boolean {
  return host.indexOf(":") !== host.lastIndexOf(":") && !/[[\]/@]/.test(host) && URL.canParse(`http://[${host}]/`);
}

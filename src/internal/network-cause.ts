/** What a failed connection's system error code means, for a message that says why a URL could not be reached. */
const causes: Record<string, string> = {
  ECONNREFUSED: "connection refused: nothing is listening at that address and port",
  ECONNRESET: "the connection was reset by the server or a proxy",
  ENOTFOUND: "DNS: the host name does not resolve",
  EAI_AGAIN: "DNS: the host name could not be resolved right now",
  EHOSTUNREACH: "the host is unreachable from here",
  ENETUNREACH: "the network is unreachable from here",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_SOCKET: "the socket closed before a response",
  EPIPE: "the connection closed while the request was sent",
  CERT_HAS_EXPIRED: "TLS: the server's certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS: the server's certificate is self-signed (set NODE_EXTRA_CA_CERTS to trust it)",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS: a self-signed certificate in the chain (set NODE_EXTRA_CA_CERTS to trust it)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "TLS: the server's certificate cannot be verified (set NODE_EXTRA_CA_CERTS to trust its CA)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS: the certificate's issuer is not trusted here (set NODE_EXTRA_CA_CERTS)",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate is for another host name",
  ERR_SSL_WRONG_VERSION_NUMBER: "TLS: the server does not speak TLS there (http:// rather than https://?)",
  EPROTO: "TLS: the handshake failed (http:// rather than https://?)",
};

/**
 * The cause of a failed connection, from the system error code under fetch's `TypeError` (undici
 * nests it in `cause`, or in an AggregateError's `errors`): its code and what it means.
 */
export function networkCause(error: unknown): { code: string; meaning: string } | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  // Bounded: a cause chain is a few errors deep; a cyclic one is cut by `seen`.
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && Object.prototype.hasOwnProperty.call(causes, code)) {
      return { code, meaning: causes[code]! };
    }
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}

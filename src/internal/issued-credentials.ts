/** How many of the latest credentials a provider issued are kept to redact (tokens rotate; old ones expire). */
const kept = 8;

const issuedBy = new WeakMap<object, string[]>();

/**
 * The credentials a credential *provider* issued for an owner (a client, a model): unlike a static
 * key they are known only once issued, so the provider's wrapper notes each one here, and error
 * mapping cuts them out like a static key.
 */
export function issuedCredentials(owner: object): string[] {
  let issued = issuedBy.get(owner);
  if (!issued) issuedBy.set(owner, (issued = []));
  return issued;
}

/** Makes `issued` (a list a provider's wrapper notes into) the owner's. */
export function keepIssuedCredentials(owner: object, issued: string[]): void {
  issuedBy.set(owner, issued);
}

/** Notes a credential just issued (the latest `kept`, each once). */
export function noteIssuedCredential(issued: string[], credential: string | undefined): void {
  if (typeof credential !== "string" || credential === "" || issued.includes(credential)) return;
  issued.push(credential);
  if (issued.length > kept) issued.shift();
}

/**
 * The trimmed body of the first ```` ``` ```` fence in a model's text, or undefined when there is
 * none: where a JSON value that is no object or array (`"high"`, `42`) is found, having no bracket
 * to scan for.
 */
export function fencedBody(text: string): string | undefined {
  const match = /```[^\n`]*\n([\s\S]*?)```/.exec(text);
  return match === null ? undefined : match[1]!.trim();
}

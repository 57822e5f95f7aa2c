/** The tool a written name means: one tool (`repaired` when not written exactly), or several it could be. */
export type ToolNameMatch = { name: string; repaired: boolean } | { candidates: string[] };

/**
 * Which of `toolNames` a model meant by `written`, where that is certain: the exact name; else
 * the one tool whose name differs only in case, `-`, `_` or spaces (`Get_Weather`, `get-weather`,
 * `getWeather` for `get_weather`); else the one whose name differs by a namespace prefix the
 * model added or dropped (`functions.get_weather` or `default_api.get_weather` for
 * `get_weather`; `create_issue` for `github__create_issue`). A name that fits two tools at the
 * first level that fits any is never guessed: the candidates are returned. Undefined when none fits.
 */
export function matchToolName(written: string, toolNames: Iterable<string>): ToolNameMatch | undefined {
  const names = [...toolNames];
  if (names.includes(written)) return { name: written, repaired: false };
  const key = loose(written);
  const bare = loose(withoutNamespace(written));
  const sameKey = names.filter((name) => loose(name) === key);
  const candidates =
    sameKey.length > 0
      ? sameKey
      : names.filter((name) => loose(withoutNamespace(name)) === key || (bare !== key && loose(name) === bare));
  if (candidates.length === 1) return { name: candidates[0]!, repaired: true };
  return candidates.length > 1 ? { candidates } : undefined;
}

/** A name without case and word separators: `Get-Weather` and `get_weather` are both `getweather`. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

/** The name after its last namespace separator: `.`, `:`, `/`, or MCP's `__` (`github__create_issue`). */
function withoutNamespace(name: string): string {
  const dot = Math.max(name.lastIndexOf("."), name.lastIndexOf(":"), name.lastIndexOf("/"));
  const dunder = name.lastIndexOf("__");
  return dunder > dot && dunder > 0 ? name.slice(dunder + 2) : name.slice(dot + 1);
}

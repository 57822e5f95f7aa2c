/**
 * `map` for arrays keelson never changes once made (a call shape's tools): each array is mapped
 * once and its result handed out again for as long as the array lives. The result is shared by
 * every request that sends it, so nothing may change it either.
 */
export function mapOncePerArray<T, R>(mapOne: (item: T) => R): (items: readonly T[]) => R[] {
  const mapped = new WeakMap<readonly T[], R[]>();
  return (items) => {
    let result = mapped.get(items);
    if (result === undefined) {
      result = items.map(mapOne);
      mapped.set(items, result);
    }
    return result;
  };
}

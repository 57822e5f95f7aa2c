/**
 * A shallow copy of `value` without the fields set to `undefined`. Under
 * `exactOptionalPropertyTypes` users pass `{ signal: maybeSignal }` as is: an option set to
 * `undefined` is an absent one, and a spread must not let it hide a default or a setting.
 */
export function definedFields<T extends object>(value: T): T {
  const copy = {} as T;
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) copy[key] = value[key];
  }
  return copy;
}

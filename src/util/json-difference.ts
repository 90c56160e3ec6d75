/**
 * Equality of parsed JSON values by value: the same member names (in any order), deeply equal values.
 *
 * @packageDocumentation
 */
import { isRecord } from "./is-record.js";

/** Nesting deeper than this is not compared: the values are then reported as differing where it stops. */
const MAX_DEPTH = 256;

/** Where two JSON values first differ, and the value of each there (`undefined` where one has no such member). */
export interface JsonDifference {
  /** The path from the root: `score`, `badges[2]`, `owner.address`; `""` when the roots themselves differ. */
  readonly path: string;
  /** The first value's value there. */
  readonly left: unknown;
  /** The second value's value there. */
  readonly right: unknown;
}

/**
 * Where two parsed JSON values first differ (see {@link JsonDifference}). Object members are
 * compared by name, in the first value's order, then the names only the second value has; arrays element by
 * element. Numbers are equal when they are the same number (`1.0` parsed is `1`), so values that differ only
 * in how their text was written are equal.
 *
 * @param a - A value from `JSON.parse`.
 * @param b - Another.
 * @returns `undefined` when they are equal by value, else the first difference.
 */
export function firstJsonDifference(a: unknown, b: unknown): JsonDifference | undefined {
  return differenceAt(a, b, "", 0);
}

function differenceAt(a: unknown, b: unknown, path: string, depth: number): JsonDifference | undefined {
  if (a === b) return undefined;
  const here: JsonDifference = { path, left: a, right: b };
  if (depth > MAX_DEPTH) return here;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return here;
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) {
      if (i >= a.length || i >= b.length) return { path: `${path}[${i}]`, left: a[i], right: b[i] };
      const found = differenceAt(a[i], b[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const name of Object.keys(a)) {
      const at = path === "" ? name : `${path}.${name}`;
      if (!Object.hasOwn(b, name)) return { path: at, left: a[name], right: undefined };
      const found = differenceAt(a[name], b[name], at, depth + 1);
      if (found !== undefined) return found;
    }
    for (const name of Object.keys(b)) {
      if (!Object.hasOwn(a, name)) return { path: path === "" ? name : `${path}.${name}`, left: undefined, right: b[name] };
    }
    return undefined;
  }
  return here;
}

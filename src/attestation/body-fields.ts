/**
 * What a signature covers in a response: the rule that every field present both in the response body and in
 * the signed block must say the same, and the list of body fields the signature does not cover.
 *
 * A valid signature over other values than the body shows is worth nothing, so a verdict is valid only when
 * no common field differs. Fields are compared by meaning, not by spelling:
 *
 * | field | equal when |
 * |---|---|
 * | `agentId` | the same decimal id (`1487` = `"1487"`) |
 * | `chain` | the same chain (`base` = `8453`) |
 * | `registry`, `tier` | the same name, ignoring case |
 * | `owner`, `wallet`, `sub` | the same address (`0x…` ignoring case; others, such as Base58, exactly) |
 * | `sybilSeverity` | the same name, ignoring case; `null` and `none` both mean "no sybil signal" |
 * | `badges` | the same set of ids; a body's `{earned, warnings}` counts as earned ∪ warnings |
 * | `sybilSignals` | the same set of signal ids, an alias counting as its canonical id (`spray_pattern` = `sweep_pattern`: `canonicalSybilSignal`) |
 * | `findings` | the same set of values |
 * | times (`issuedAt`, `verifiedAt`, `expiry`, …) | the same instant (ISO-8601 or Unix seconds) |
 * | anything else | the same JSON value |
 *
 * @packageDocumentation
 */
import { resolveChain } from "../config/chains.js";
import { canonicalSybilSeverity, NO_SYBIL_SIGNAL } from "../config/encodings.js";
import { hasAddressShape } from "../inputs/address.js";
import { canonicalSybilSignal } from "../published/sybil-signals.js";
import type { FieldMismatch } from "./result.js";
import { parseServiceTime } from "./time.js";

/** Body fields that carry the attestations themselves, never compared nor listed as unsigned. */
export const ATTESTATION_FIELDS: ReadonlySet<string> = new Set(["attestation", "attestationV1"]);

/** Outcome of {@link compareBodyWithSigned}. */
export type BodyComparison =
  { ok: true; unsigned: Record<string, unknown>; unsignedFields: string[] } | { ok: false; mismatch: FieldMismatch };

/**
 * Compares a response body with the signed block it carries.
 *
 * @param signed - The verified signed block.
 * @param body - The response body (or `undefined` when only an attestation object was given).
 * @returns The first common field that differs, or the body's fields the signature does not cover.
 */
export function compareBodyWithSigned(signed: Record<string, unknown>, body: Record<string, unknown> | undefined): BodyComparison {
  const unsigned: Record<string, unknown> = {};
  const unsignedFields: string[] = [];
  if (body === undefined) return { ok: true, unsigned, unsignedFields };
  for (const field of Object.keys(body)) {
    if (ATTESTATION_FIELDS.has(field)) continue;
    if (!Object.hasOwn(signed, field)) {
      unsigned[field] = body[field];
      unsignedFields.push(field);
      continue;
    }
    if (!sameValue(field, signed[field], body[field])) {
      return { ok: false, mismatch: { field, signed: signed[field], response: body[field] } };
    }
  }
  return { ok: true, unsigned, unsignedFields };
}

/**
 * Whether two values of a field mean the same (see the module notes for the rules).
 *
 * @param field - Field name; selects the rule.
 * @param a - One value.
 * @param b - The other value.
 * @returns `true` when they mean the same.
 */
export function sameValue(field: string, a: unknown, b: unknown): boolean {
  const normalize = NORMALIZERS.get(field) ?? comparisonKey;
  // Every normalizer is a function of the JSON value, so the same value normalizes the same: a primitive is then
  // equal when it normalizes at all, and the same array of strings (or numbers, but for badges) always does for
  // the rules that take arrays.
  if (a === b && (typeof a === "string" || typeof a === "number")) return normalize(a) !== undefined;
  if (ARRAY_RULES.has(normalize) && sameFlatArray(a, b, normalize === normalizeBadges)) return true;
  // Sets are compared as sets, which is what comparing their sorted normal forms amounts to.
  const members = SET_MEMBERS.get(normalize);
  if (members !== undefined) return sameSet(members(a), members(b));
  const left = normalize(a);
  return left !== undefined && left === normalize(b);
}

function sameSet(a: ReadonlySet<unknown> | undefined, b: ReadonlySet<unknown> | undefined): boolean {
  if (a === undefined || b === undefined || a.size !== b.size) return false;
  for (const member of a) if (!b.has(member)) return false;
  return true;
}

/** Whether two arrays hold the same strings (or numbers, unless `stringsOnly`) in the same order. */
function sameFlatArray(a: unknown, b: unknown, stringsOnly: boolean): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const item = a[i] as unknown;
    if (item !== b[i] || !(typeof item === "string" || (!stringsOnly && typeof item === "number"))) return false;
  }
  return true;
}

type Normalizer = (value: unknown) => string | undefined;

/**
 * A decimal agent id, or `undefined` for a value that is not one.
 *
 * @param value - A number, a decimal string or a bigint.
 * @returns The id in canonical decimal form.
 */
export function normalizeAgentId(value: unknown): string | undefined {
  if (typeof value === "bigint") return value >= 0n ? value.toString() : undefined;
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) {
    const digits = value.trim();
    // Up to 15 digits a double is exact, and cheaper than a bigint; both drop leading zeros.
    return digits.length <= 15 ? String(Number(digits)) : BigInt(digits).toString();
  }
  return undefined;
}

/**
 * The chain slug a value names (a slug, an alias or a chain id), or the value itself when it names no known
 * chain.
 *
 * @param value - A slug, alias or chain id.
 * @returns The canonical slug.
 */
export function normalizeChain(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  try {
    return resolveChain(value).slug;
  } catch {
    return typeof value === "string" ? value.trim().toLowerCase() : String(value);
  }
}

/**
 * A sybil severity in canonical form, by {@link canonicalSybilSeverity}'s rule (`null` and `none` are both
 * `none`; else the name trimmed, in lower case), over any value: an absent or blank value is `none` too. It reads
 * each of the three published vocabularies (`PUBLISHED_SYBIL_SEVERITIES` in `config/encodings.ts`, with their
 * sources: crosswalk `null`/low/moderate/elevated/heavy, spec none/low/moderate/heavy, SDK
 * low/moderate/elevated/heavy).
 *
 * @param value - The severity as written.
 * @returns The canonical name, or `undefined` for a value that is neither a string nor null.
 */
export function normalizeSybilSeverity(value: unknown): string | undefined {
  if (value === undefined) return NO_SYBIL_SIGNAL;
  if (value !== null && typeof value !== "string") return undefined;
  return canonicalSybilSeverity(value) || NO_SYBIL_SIGNAL;
}

/**
 * The badge ids of a badges value: a flat array, or `{earned, warnings}` (merged).
 *
 * @param value - The badges as written.
 * @returns The ids, unique, or `undefined` when the value is neither form.
 */
export function badgeIds(value: unknown): string[] | undefined {
  const ids = new Set<string>();
  if (Array.isArray(value)) return addIds(ids, value) ? [...ids] : undefined;
  if (typeof value === "object" && value !== null) {
    const { earned, warnings } = value as { earned?: unknown; warnings?: unknown };
    return addIds(ids, earned ?? []) && addIds(ids, warnings ?? []) ? [...ids] : undefined;
  }
  return undefined;
}

/** Adds a list of ids to a set; `false` when it is not a list of strings. */
function addIds(ids: Set<string>, list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  for (const id of list) {
    if (typeof id !== "string") return false;
    ids.add(id);
  }
  return true;
}

function normalizeName(value: unknown): string | undefined {
  return typeof value === "string" ? value.trim().toLowerCase() : undefined;
}

function normalizeNumber(value: unknown): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return String(Number(value));
  return undefined;
}

function normalizeAddress(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return hasAddressShape(text) ? text.toLowerCase() : text;
}

function normalizeTime(value: unknown): string | undefined {
  const parsed = parseServiceTime(value);
  return parsed.ok ? String(parsed.ms) : comparisonKey(value);
}

function normalizeBadges(value: unknown): string | undefined {
  const ids = badgeIds(value);
  return ids === undefined ? undefined : JSON.stringify(ids.sort());
}

function asSet(value: unknown): string | undefined {
  const items = setMembers(value);
  return items === undefined ? undefined : JSON.stringify([...items].sort());
}

/** The members of a set-valued field: the canonical JSON of each item. */
function setMembers(value: unknown): Set<string | undefined> | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = new Set<string | undefined>();
  for (const item of value) items.add(comparisonKey(item));
  return items;
}

function asSignalSet(value: unknown): string | undefined {
  const items = signalMembers(value);
  return items === undefined ? undefined : JSON.stringify([...items].sort());
}

/** The members of a `sybilSignals` value: as {@link setMembers}, each id in its canonical spelling. */
function signalMembers(value: unknown): Set<string | undefined> | undefined {
  if (!Array.isArray(value)) return undefined;
  return setMembers(value.map((item: unknown) => (typeof item === "string" ? canonicalSybilSignal(item) : item)));
}

function badgeSet(value: unknown): Set<string> | undefined {
  const ids = badgeIds(value);
  return ids === undefined ? undefined : new Set(ids);
}

/**
 * A key under which equal JSON values compare equal (members sorted, as RFC 8785 sorts them), for any value a body
 * may hold: unlike `canonicalJson` (`canonical-json.ts`, which refuses what has no canonical form), it never throws,
 * as comparing a body with its signed block must give an answer for every value.
 */
function comparisonKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? value.toString() : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => comparisonKey(v) ?? "null").join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${comparisonKey(record[k])}`).join(",")}}`;
}

const NORMALIZERS: ReadonlyMap<string, Normalizer> = new Map(
  Object.entries({
    agentId: normalizeAgentId,
    chain: normalizeChain,
    registry: normalizeName,
    tier: normalizeName,
    score: normalizeNumber,
    owner: normalizeAddress,
    wallet: normalizeAddress,
    sub: normalizeAddress,
    sybilSeverity: normalizeSybilSeverity,
    badges: normalizeBadges,
    sybilSignals: asSignalSet,
    findings: asSet,
    issuedAt: normalizeTime,
    verifiedAt: normalizeTime,
    attestedAt: normalizeTime,
    expiry: normalizeTime,
  } satisfies Record<string, Normalizer>),
);

/** The rules under which an array of strings (numbers too, but for badges) is always a valid value. */
const ARRAY_RULES: ReadonlySet<Normalizer> = new Set([comparisonKey, asSet, asSignalSet, normalizeBadges]);

/** The set-valued rules, with the members of a value under each: two values are equal when their sets are. */
const SET_MEMBERS: ReadonlyMap<Normalizer, (value: unknown) => ReadonlySet<unknown> | undefined> = new Map<
  Normalizer,
  (value: unknown) => ReadonlySet<unknown> | undefined
>([
  [asSet, setMembers],
  [asSignalSet, signalMembers],
  [normalizeBadges, badgeSet],
]);

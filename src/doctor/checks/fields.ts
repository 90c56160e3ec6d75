/**
 * `fields:<endpoint>`: the member names and types of a live answer against the kit's published shape of that
 * endpoint: the schema the API client validates it with (a missing required member or a member of another type
 * fails it), and the member names the shape knows, at the top level and in the nested objects that matter (the
 * attestation, the trust-check's signed block, the explorer profile's agent), so that a renamed or unknown member
 * shows even where the loose schemas would keep it silently. Holds when the answer parses and every member is known;
 * differs otherwise. Members the shape knows but the answer lacks (all optional) are listed, not counted against it.
 *
 * @packageDocumentation
 */
import type { z } from "zod";
import { isRecord } from "../../util/is-record.js";
import { formatIssues } from "../../api/validate.js";
import { type DoctorEndpointId, ENDPOINT_SHAPES, type NestedShape } from "../endpoints.js";
import { type CheckId, type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import type { ServiceAnswer, ServiceOutcome } from "../service-probe.js";

/** Most schema issues listed per answer. */
const MAX_ISSUES = 4;

/** What the check found in one answer. */
export interface FieldsFinding {
  /** The request (method and redacted URL). */
  readonly request: string;
  /** The answer's top-level member names, in order. */
  readonly members: readonly string[];
  /** Members no published shape names, as paths (`trustScore`, `attestation.signed.level`). */
  readonly unknown: readonly string[];
  /** Members the shape names that the answer lacks (optional ones; a required one is also a schema issue). */
  readonly absent: readonly string[];
  /** Schema issues (`score: Invalid input: expected number, received string`). */
  readonly issues: readonly string[];
}

/**
 * The id of the check of an endpoint.
 *
 * @param endpoint - The endpoint.
 * @returns `fields:<endpoint>`.
 */
export function fieldsCheckId(endpoint: DoctorEndpointId): CheckId {
  return `fields:${endpoint}`;
}

/**
 * Runs the check of one endpoint over its answers (two for `trust-check`, one for the others).
 *
 * @param endpoint - The endpoint.
 * @param outcomes - Its answers, or why there are none.
 * @returns The result.
 */
export function checkFields(endpoint: DoctorEndpointId, outcomes: readonly ServiceOutcome[]): CheckResult {
  const id = fieldsCheckId(endpoint);
  const answers = outcomes.filter((o): o is ServiceAnswer => o.ok);
  if (answers.length === 0) {
    const reasons = outcomes.map((o) => (o.ok ? "" : o.reason)).filter((r) => r !== "");
    return couldNotCheck(id, reasons.length > 0 ? [...new Set(reasons)].join("; ") : "not asked");
  }
  const findings = answers.map((answer) => inspect(endpoint, answer));
  const observed = { findings };
  const bad = findings.find((f) => f.issues.length > 0 || f.unknown.length > 0);
  if (!bad) {
    const first = findings[0]!;
    const absent = first.absent.length > 0 ? `; not served: ${first.absent.join(", ")}` : "";
    return holds(id, `${first.members.length} members, each as published${absent}`, observed);
  }
  const parts = [
    ...(bad.unknown.length > 0 ? [`unknown ${bad.unknown.join(", ")}`] : []),
    ...(bad.issues.length > 0 ? [bad.issues.join("; ")] : []),
  ];
  return differs(id, parts.join("; "), observed);
}

function inspect(endpoint: DoctorEndpointId, answer: ServiceAnswer): FieldsFinding {
  const shape = ENDPOINT_SHAPES[endpoint];
  const body = answer.body;
  if (!isRecord(body)) {
    return { request: answer.request, members: [], unknown: [], absent: [], issues: [`(body): not a JSON object`] };
  }
  const issues: string[] = [];
  const parsed = shape.schema.safeParse(body);
  if (!parsed.success) issues.push(...formatIssues(parsed.error.issues, MAX_ISSUES));
  const top = compareMembers(body, shape.schema, [], shape.alsoDocumented);
  const unknown = [...top.unknown];
  const absent = [...top.absent];
  for (const nested of shape.nested) {
    if (nested.when && !nested.when(body)) continue;
    const value = valueAt(body, nested.path);
    if (!isRecord(value)) continue;
    const found = compareMembers(value, nested.schema, nested.path);
    unknown.push(...found.unknown);
    absent.push(...found.absent);
    issues.push(...nestedIssues(value, nested));
  }
  return { request: answer.request, members: Object.keys(body), unknown, absent, issues: [...new Set(issues)] };
}

/** Issues of a nested object that its parent's schema does not check (the signed block under a generic attestation). */
function nestedIssues(value: Record<string, unknown>, nested: NestedShape): string[] {
  const parsed = nested.schema.safeParse(value);
  if (parsed.success) return [];
  return formatIssues(parsed.error.issues, MAX_ISSUES).map((line) => `${nested.path.join(".")}.${line}`);
}

function compareMembers(
  value: Record<string, unknown>,
  schema: z.ZodType,
  path: readonly string[],
  alsoKnown: readonly string[] = [],
): { unknown: string[]; absent: string[] } {
  const known = shapeKeys(schema);
  if (known === undefined) return { unknown: [], absent: [] };
  const prefix = path.length > 0 ? `${path.join(".")}.` : "";
  return {
    unknown: Object.keys(value)
      .filter((name) => !known.includes(name) && !alsoKnown.includes(name))
      .map((name) => prefix + name),
    absent: known.filter((name) => !Object.hasOwn(value, name)).map((name) => prefix + name),
  };
}

/** The member names an object schema declares, or `undefined` for a schema that is not an object. */
function shapeKeys(schema: z.ZodType): string[] | undefined {
  const shape = (schema as { shape?: unknown }).shape;
  return isRecord(shape) ? Object.keys(shape) : undefined;
}

function valueAt(body: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = body;
  for (const name of path) value = isRecord(value) ? value[name] : undefined;
  return value;
}

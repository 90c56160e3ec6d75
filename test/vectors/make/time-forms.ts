/**
 * The time forms: every way RFC 3339 lets an issuer write a signed time, each accepted by both verifiers as the same
 * Unix second (the offset applied, the fraction dropped: the record's `updatedAt` is the signed `issuedAt`'s second),
 * and the texts that are not such an instant, each refused by both with the field it lies in. The service's own
 * sample (a2aproject/A2A#1628, 2026-04-14) writes `issuedAt` as `2026-04-14T10:38:38.243+00:00` beside `verifiedAt`
 * and `expiry` in the `Z` form.
 */
import type { TrustCheckVector } from "../format";
import { accepted, refused, reverts, VALID_V2, vectorOf, type VectorDraft } from "./draft";
import type { VectorKeys } from "./keys";
import { agentAnswer, attest, jwsCall, recordOf, replaceOnce, respond } from "./responses";

/** The three signed times. */
const TIME_FIELDS = ["issuedAt", "verifiedAt", "expiry"] as const;
type TimeField = (typeof TIME_FIELDS)[number];

/** How a time is written: its fraction digits, its offset (`Z` when absent), the case of `T` and `Z`. */
interface TimeForm {
  /** Fraction digits, 0 to 9 (past the milliseconds, the digits 456789 follow). */
  readonly digits: number;
  /** Minutes east of UTC, written `±hh:mm`; absent for `Z`. */
  readonly offsetMinutes?: number;
  /** `t` and `z` in lower case. */
  readonly lower?: boolean;
}

/**
 * An instant written in a form: its wall time at the offset (formatted by `toISOString`, independently of the readers),
 * the fraction cut or extended to the form's digits, then the zone.
 */
function writeTime(ms: number, form: TimeForm): string {
  const offset = form.offsetMinutes ?? 0;
  const wall = new Date(ms + offset * 60_000).toISOString();
  const fractionDigits = `${wall.slice(20, 23)}456789`.slice(0, form.digits);
  const abs = Math.abs(offset);
  const zone =
    form.offsetMinutes === undefined
      ? "Z"
      : `${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const text = `${wall.slice(0, 19)}${form.digits > 0 ? `.${fractionDigits}` : ""}${zone}`;
  return form.lower ? text.replace("T", "t").replace("Z", "z") : text;
}

/**
 * Builds the time-form vectors: the valid forms (`valid-form`) and the refusals (`parser-differential`, as a lenient
 * date parser reads most of them as an instant).
 *
 * @param keys - The test keys.
 * @returns The vectors.
 */
export async function timeFormVectors(keys: VectorKeys): Promise<TrustCheckVector[]> {
  const key = keys.trustV2;
  const kid = key.kid;
  const { body, signed } = await agentAnswer(key);
  const instants = Object.fromEntries(TIME_FIELDS.map((field) => [field, Date.parse(String(signed[field]))])) as Record<TimeField, number>;
  const stored = accepted(recordOf(signed));

  const forms: { id: string; covers: string[]; description: string; forms: Partial<Record<TimeField, TimeForm>> }[] = [
    {
      id: "issued-at-with-offset",
      covers: ["time:utc-offset"],
      description: "issuedAt with +00:00 instead of Z: an RFC 3339 date-time, the same instant, the same second on both sides.",
      forms: { issuedAt: { digits: 3, offsetMinutes: 0 } },
    },
    {
      id: "time-service-sample",
      covers: ["time:utc-offset", "time:service-sample"],
      description:
        "The service's sample form (a2aproject/A2A#1628): issuedAt with milliseconds and +00:00, as a database writes it, beside verifiedAt and expiry in the Z form of toISOString.",
      forms: { issuedAt: { digits: 3, offsetMinutes: 0 } },
    },
    {
      id: "time-microseconds-utc-offset",
      covers: ["time:utc-offset", "time:fraction-digits"],
      description: "Every time with microseconds (6 fraction digits) and +00:00: the fraction is dropped, the second is kept.",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 6, offsetMinutes: 0 }])),
    },
    {
      id: "time-no-fraction",
      covers: ["time:fraction-digits"],
      description: "Every time without a fraction (YYYY-MM-DDTHH:MM:SSZ).",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 0 }])),
    },
    {
      id: "time-one-fraction-digit",
      covers: ["time:fraction-digits"],
      description: "Every time with one fraction digit (tenths of a second).",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 1 }])),
    },
    {
      id: "time-nine-fraction-digits",
      covers: ["time:fraction-digits"],
      description: "Every time with nine fraction digits (nanoseconds), the most RFC 3339 readers are held to here.",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 9 }])),
    },
    {
      id: "time-offset-east",
      covers: ["time:other-offset"],
      description: "Every time at +05:30: the wall time 5 h 30 min ahead of UTC, the same instants.",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 3, offsetMinutes: 330 }])),
    },
    {
      id: "time-offset-west",
      covers: ["time:other-offset"],
      description: "Every time at -08:00, without a fraction: the wall time 8 h behind UTC, the same instants.",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 0, offsetMinutes: -480 }])),
    },
    {
      id: "time-lowercase-t-z",
      covers: ["time:lowercase"],
      description: "Every time with a lowercase t and z, which RFC 3339 allows.",
      forms: Object.fromEntries(TIME_FIELDS.map((field) => [field, { digits: 3, lower: true }])),
    },
  ];

  const drafts: VectorDraft[] = [];
  for (const { id, covers, description, forms: written } of forms) {
    const block: Record<string, unknown> = { ...signed };
    for (const field of TIME_FIELDS) {
      const form = written[field];
      if (form !== undefined) block[field] = writeTime(instants[field], form);
    }
    const attestation = await attest(block, key, { form: "jws" });
    drafts.push({
      id,
      covers,
      description,
      response: respond(body, attestation),
      call: jwsCall(kid, attestation.jws!),
      offchain: VALID_V2,
      // The record of the original block: the same issuedAt second, whatever the form.
      onchain: stored,
    });
  }

  const text = JSON.stringify(signed);
  const issued = String(signed.issuedAt);
  const withTime = (field: TimeField, value: string) => replaceOnce(text, `"${field}":"${String(signed[field])}"`, `"${field}":"${value}"`);
  const refusals: { id: string; description: string; field: TimeField; value: string }[] = [
    {
      id: "time-impossible-date",
      description: "issuedAt on September 31, a day that does not exist (a lenient parser rolls it over to October 1).",
      field: "issuedAt",
      value: `2026-09-31${issued.slice(10)}`,
    },
    {
      id: "time-leap-second",
      description: "issuedAt at second 60, a leap second: Unix time has none, and neither reader reads one.",
      field: "issuedAt",
      value: `${issued.slice(0, 17)}60${issued.slice(19)}`,
    },
    {
      id: "time-offset-24-hours",
      description: "issuedAt at +24:00, beyond the offsets RFC 3339 allows (hours 00-23).",
      field: "issuedAt",
      value: issued.replace("Z", "+24:00"),
    },
    {
      id: "time-space-for-t",
      description: "verifiedAt with a space for T (RFC 3339 allows it only in its notes, not in its grammar).",
      field: "verifiedAt",
      value: String(signed.verifiedAt).replace("T", " "),
    },
    {
      id: "time-empty-fraction",
      description: "issuedAt with a '.' and no fraction digit.",
      field: "issuedAt",
      value: `${issued.slice(0, 19)}.Z`,
    },
    {
      id: "time-ten-fraction-digits",
      description: "issuedAt with ten fraction digits, one more than either reader reads.",
      field: "issuedAt",
      value: `${issued.slice(0, 19)}.0123456789Z`,
    },
    {
      id: "time-offset-without-colon",
      description: "expiry with +0000, an ISO 8601 offset without its colon that RFC 3339 does not allow.",
      field: "expiry",
      value: String(signed.expiry).replace("Z", "+0000"),
    },
    {
      id: "time-year-before-1970",
      description: "issuedAt in 1969, before the Unix epoch a record's updatedAt counts from.",
      field: "issuedAt",
      value: `1969${issued.slice(4)}`,
    },
  ];
  for (const { id, description, field, value } of refusals) {
    const attestation = await attest(signed, key, {
      form: "jws",
      signedNull: true,
      signing: { jwsPayload: new TextEncoder().encode(withTime(field, value)) },
    });
    drafts.push({
      id,
      covers: ["parser:time-form", "form:jws-only"],
      description,
      response: respond(body, attestation),
      call: jwsCall(kid, attestation.jws!),
      offchain: refused("malformed", field),
      onchain: reverts("AttestationFieldInvalid", { field }),
    });
  }

  return drafts.map((draft) => vectorOf(draft.offchain.valid ? "valid-form" : "parser-differential", draft));
}

/**
 * The parser differentials: signed bytes that two readers could read differently (JSON.parse off-chain, the
 * contract's reader on-chain), each of which both must refuse with the same field, and their valid twins
 * (what the rules allow). Every vector is JWS-only (`signed: null`): a `signed` object cannot carry the exact
 * bytes. Every signature is genuine, and the body says what `JSON.parse` reads from the payload, so that only
 * the signed-block rules refuse it.
 */
import type { TrustCheckVector } from "../format";
import { accepted, refused, reverts, VALID_V2, vectorOf, type VectorDraft } from "./draft";
import type { VectorKeys } from "./keys";
import { agentAnswer, attest, HOUR_MS, jwsCall, nowPlus, recordOf, replaceOnce, respond } from "./responses";

/** A hostile payload: its exact bytes, and what the body shows (what JSON.parse reads, when it reads it). */
interface HostilePayload {
  id: string;
  covers: string[];
  description: string;
  bytes: Uint8Array;
  /** Body fields changed to what a lenient reader of the payload sees. */
  body?: Record<string, unknown>;
  /** The off-chain field named (`json` for the grammar, else the signed block's field). */
  field: string;
  /** The on-chain error and its field, if it names one. */
  onchain: { error: string; field?: string };
}

/**
 * Builds the parser-differential vectors.
 *
 * @param keys - The test keys.
 * @returns The vectors.
 */
export async function parserDifferentialVectors(keys: VectorKeys): Promise<TrustCheckVector[]> {
  const key = keys.trustV2;
  const kid = key.kid;
  const { body, signed } = await agentAnswer(key);
  const text = JSON.stringify(signed);
  const utf8 = (value: string) => new TextEncoder().encode(value);
  const withTail = (tail: string) => utf8(withTailText(text, tail));
  const withBytesInMember = (bytes: number[]) =>
    Buffer.concat([Buffer.from(`${text.slice(0, -1)},"note":"abc`), Buffer.from(bytes), Buffer.from(`def"}`)]);
  const badgesWith = (replacement: string) => utf8(replaceOnce(text, '"badges":["original_owner",', `"badges":[${replacement},`));
  const earned = (body.badges as { earned: string[]; warnings: string[] }).earned;

  const hostile: HostilePayload[] = [
    {
      id: "escaped-duplicate-score",
      covers: ["parser:escaped-duplicate-name"],
      description:
        'score 82, then "sc\\u006fre": 95 at the end: JSON.parse decodes the name to score and keeps 95; a reader that skips escaped names keeps 82.',
      bytes: withTail('"sc\\u006fre":95'),
      body: { score: 95 },
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "escaped-unknown-member-name",
      covers: ["parser:escaped-duplicate-name"],
      description:
        "A top-level member name with an escape that decodes to no known field (n\\u006fte): every escaped top-level name is refused.",
      bytes: withTail('"n\\u006fte":1'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "badges-missing-comma",
      covers: ["parser:invalid-json-in-badges"],
      description: "Two badge strings with no comma between them, inside the skipped badges.",
      bytes: badgesWith('"original_owner" "sybil_free"'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "badges-invalid-escape",
      covers: ["parser:invalid-json-in-badges"],
      description: "A badge string with the escape \\x41, which JSON does not have.",
      bytes: badgesWith('"original\\x41owner"'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "badges-raw-control-byte",
      covers: ["parser:invalid-json-in-badges"],
      description: "A badge string holding a raw 0x01 byte (control bytes must be escaped).",
      bytes: badgesWith('"original\u0001owner"'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "unknown-member-bad-literal",
      covers: ["parser:invalid-json-in-unknown-member"],
      description: 'An unknown member whose value is the literal "tru".',
      bytes: withTail('"note":tru'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "unknown-member-leading-zero-number",
      covers: ["parser:invalid-json-in-unknown-member"],
      description: "An unknown member whose value is the number 01 (a leading zero).",
      bytes: withTail('"note":01'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "unknown-member-object-number-name",
      covers: ["parser:invalid-json-in-unknown-member"],
      description: "An unknown member holding an object whose member name is a number, not a string.",
      bytes: withTail('"note":{1:2}'),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "owner-raw-control-bytes",
      covers: ["parser:owner-control-bytes"],
      description:
        "The owner's last two hex digits replaced by the raw bytes 0x01 0x02: the text is no longer JSON (a raw control byte in a string), which both readers refuse before any field rule.",
      bytes: utf8(replaceOnce(text, '5428"', '54\u0001\u0002"')),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "owner-escaped-hex-digit",
      covers: ["parser:owner-control-bytes"],
      description: "An owner hex digit written as \\u0030: JSON.parse reads a valid address, a byte reader reads a backslash.",
      bytes: utf8(replaceOnce(text, '"owner":"0x7a16ff8270133f0', '"owner":"0x7a16ff8270133f\\u0030')),
      field: "owner",
      onchain: { error: "AttestationFieldInvalid", field: "owner" },
    },
    {
      id: "utf8-overlong-in-badge",
      covers: ["parser:utf8-overlong"],
      description: "A badge string with the overlong encoding C0 AF of '/': a lenient decoder reads U+FFFD.",
      bytes: Buffer.concat([
        Buffer.from(text.slice(0, text.indexOf('"badges":[') + '"badges":['.length)),
        Buffer.from('"x'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('x",'),
        Buffer.from(text.slice(text.indexOf('"badges":[') + '"badges":['.length)),
      ]),
      body: {
        badges: { ...(body.badges as object), earned: [new TextDecoder().decode(Buffer.from([0x78, 0xc0, 0xaf, 0x78])), ...earned] },
      },
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "utf8-surrogate",
      covers: ["parser:utf8-surrogate"],
      description: "An unknown member's string with ED A0 80, the surrogate U+D800 encoded in UTF-8.",
      bytes: withBytesInMember([0xed, 0xa0, 0x80]),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "utf8-truncated",
      covers: ["parser:utf8-truncated"],
      description: "An unknown member's string with E2 82, the first two bytes of a three-byte sequence.",
      bytes: withBytesInMember([0xe2, 0x82]),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "utf8-above-max-code-point",
      covers: ["parser:utf8-above-max"],
      description: "An unknown member's string with F4 90 80 80, which would be U+110000.",
      bytes: withBytesInMember([0xf4, 0x90, 0x80, 0x80]),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "agent-id-number-above-2-53",
      covers: ["parser:agentid-above-2^53"],
      description: "agentId as the number 9007199254740993: JSON.parse rounds it to 9007199254740992, a big-integer reader does not.",
      bytes: utf8(replaceOnce(text, '"agentId":"16907"', '"agentId":9007199254740993')),
      body: { agentId: 9007199254740992 },
      field: "agentId",
      onchain: { error: "AttestationFieldInvalid", field: "agentId" },
    },
    {
      id: "escaped-tier",
      covers: ["parser:escaped-tier"],
      description: "tier written establish\\u0065d: JSON.parse reads established.",
      bytes: utf8(replaceOnce(text, '"tier":"established"', '"tier":"establish\\u0065d"')),
      field: "tier",
      onchain: { error: "AttestationFieldInvalid", field: "tier" },
    },
    {
      id: "escaped-chain",
      covers: ["parser:escaped-tier"],
      description: "chain written b\\u0061se: JSON.parse reads base.",
      bytes: utf8(replaceOnce(text, '"chain":"base"', '"chain":"b\\u0061se"')),
      field: "chain",
      onchain: { error: "AttestationFieldInvalid", field: "chain" },
    },
    {
      id: "escaped-sybil-severity",
      covers: ["parser:escaped-tier"],
      description: "sybilSeverity written l\\u006fw: JSON.parse reads low.",
      bytes: utf8(replaceOnce(text, '"sybilSeverity":"low"', '"sybilSeverity":"l\\u006fw"')),
      field: "sybilSeverity",
      onchain: { error: "AttestationFieldInvalid", field: "sybilSeverity" },
    },
    {
      id: "duplicate-score",
      covers: ["parser:duplicate-known-field"],
      description: "score twice, 82 then 40: JSON.parse keeps 40, a first-match reader 82.",
      bytes: withTail('"score":40'),
      body: { score: 40, tier: "established" },
      field: "score",
      onchain: { error: "AttestationFieldDuplicate", field: "score" },
    },
    {
      id: "duplicate-expiry",
      covers: ["parser:duplicate-known-field"],
      description: "expiry twice, the second a year later: a last-match reader extends the attestation's life.",
      bytes: withTail(`"expiry":"${nowPlus(365 * 24 * HOUR_MS)}"`),
      field: "expiry",
      onchain: { error: "AttestationFieldDuplicate", field: "expiry" },
    },
    {
      id: "signed-found-false-with-agent-fields",
      covers: ["parser:found-not-true"],
      description:
        "An agent's block that also signs found: false and a wallet: a wallet's proof of absence to a reader that looks at found first, an agent's record to one that looks at the agent fields. found is true or absent in an agent's block.",
      bytes: utf8(text.replace("{", '{"found":false,"wallet":"0x00000000000000000000000000000000deadbeef",')),
      body: { found: false, wallet: "0x00000000000000000000000000000000deadbeef" },
      field: "found",
      onchain: { error: "AttestationFieldInvalid", field: "found" },
    },
    {
      id: "found-string-false",
      covers: ["parser:found-not-true"],
      description: 'found as the string "false" after the agent fields: only the literal true is an agent\'s found.',
      bytes: withTail('"found":"false"'),
      body: { found: "false" },
      field: "found",
      onchain: { error: "AttestationFieldInvalid", field: "found" },
    },
    {
      id: "found-zero",
      covers: ["parser:found-not-true"],
      description: "found as the number 0 (falsy to a loose reader) after the agent fields.",
      bytes: withTail('"found":0'),
      body: { found: 0 },
      field: "found",
      onchain: { error: "AttestationFieldInvalid", field: "found" },
    },
    {
      id: "found-null",
      covers: ["parser:found-not-true"],
      description: "found as null after the agent fields.",
      bytes: withTail('"found":null'),
      body: { found: null },
      field: "found",
      onchain: { error: "AttestationFieldInvalid", field: "found" },
    },
    {
      id: "duplicate-found",
      covers: ["parser:duplicate-known-field", "parser:found-not-true"],
      description:
        "found twice, true then false: JSON.parse keeps false (a wallet's proof), a first-match reader true (an agent's record).",
      bytes: withTail('"found":true,"found":false'),
      body: { found: false },
      field: "found",
      onchain: { error: "AttestationFieldDuplicate", field: "found" },
    },
    {
      id: "escaped-found-name",
      covers: ["parser:escaped-duplicate-name", "parser:found-not-true"],
      description:
        'An agent\'s block with "\\u0066ound": false at the end: JSON.parse decodes the name to found; every escaped top-level name is refused.',
      bytes: withTail('"\\u0066ound":false'),
      body: { found: false },
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "score-exponent",
      covers: ["parser:score-exponent"],
      description: "score written 8.2e1: JSON.parse reads 82.",
      bytes: utf8(replaceOnce(text, '"score":82', '"score":8.2e1')),
      field: "score",
      onchain: { error: "AttestationFieldInvalid", field: "score" },
    },
    {
      id: "score-fraction",
      covers: ["parser:score-exponent"],
      description: "score written 82.0: JSON.parse reads 82.",
      bytes: utf8(replaceOnce(text, '"score":82', '"score":82.0')),
      field: "score",
      onchain: { error: "AttestationFieldInvalid", field: "score" },
    },
    {
      id: "issued-at-unix-seconds",
      covers: ["parser:time-form"],
      description: "issuedAt as a number of Unix seconds: signed times are RFC 3339 date-time strings.",
      bytes: utf8(
        replaceOnce(
          text,
          `"issuedAt":"${String(signed.issuedAt)}"`,
          `"issuedAt":${Math.floor(Date.parse(String(signed.issuedAt)) / 1000)}`,
        ),
      ),
      field: "issuedAt",
      onchain: { error: "AttestationFieldInvalid", field: "issuedAt" },
    },
    {
      id: "missing-verified-at",
      covers: ["parser:missing-field"],
      description: "No verifiedAt: every read field is required.",
      bytes: utf8(replaceOnce(text, `"verifiedAt":"${String(signed.verifiedAt)}",`, "")),
      field: "verifiedAt",
      onchain: { error: "AttestationFieldMissing", field: "verifiedAt" },
    },
    {
      id: "byte-order-mark",
      covers: ["parser:structure"],
      description: "The payload starts with a UTF-8 byte order mark (EF BB BF), which TextDecoder drops silently.",
      bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "second-value-after-object",
      covers: ["parser:structure"],
      description: "A second JSON value after the object: one value only.",
      bytes: utf8(`${text} {}`),
      field: "json",
      onchain: { error: "AttestationJsonMalformed" },
    },
    {
      id: "nesting-too-deep",
      covers: ["parser:structure"],
      description: "An unknown member nested 300 arrays deep (the limit is 248), which JSON.parse reads.",
      bytes: withTail(`"note":${"[".repeat(300)}${"]".repeat(300)}`),
      field: "json",
      onchain: { error: "AttestationJsonTooDeep" },
    },
  ];

  const drafts: VectorDraft[] = [];
  for (const payload of hostile) {
    const attestation = await attest(signed, key, { form: "jws", signedNull: true, signing: { jwsPayload: payload.bytes } });
    drafts.push({
      id: payload.id,
      covers: [...payload.covers, "form:jws-only"],
      description: payload.description,
      response: respond({ ...body, ...payload.body }, attestation),
      call: jwsCall(kid, attestation.jws!),
      offchain: refused("malformed", payload.field),
      onchain: reverts(payload.onchain.error, payload.onchain.field === undefined ? undefined : { field: payload.onchain.field }),
    });
  }

  const allowed: { id: string; description: string; bytes: Uint8Array; body?: Record<string, unknown> }[] = [
    {
      id: "valid-agent-id-number-max-safe",
      description: "agentId as the number 9007199254740991 (2^53 - 1), the largest both readers read alike.",
      bytes: utf8(replaceOnce(text, '"agentId":"16907"', '"agentId":9007199254740991')),
      body: { agentId: 9007199254740991 },
    },
    {
      id: "valid-unknown-members-repeated-and-escaped-values",
      description:
        "Unknown members (which may repeat) holding escapes, a nested score and an issuedAt, and a badge with an escape: skipped values, valid JSON, read by neither verifier.",
      bytes: utf8(
        replaceOnce(
          withTailText(
            text,
            '"note":"a\\u0041\\n\\"score\\":1","note":{"score":1,"issuedAt":"2030-01-01T00:00:00Z","list":[true,false,null,-1.5e-3,{}]}',
          ),
          '"badges":["original_owner",',
          '"badges":["original_owner","caf\\u00e9",',
        ),
      ),
      body: { badges: { ...(body.badges as object), earned: [...earned, "café"] } },
    },
    {
      id: "valid-found-true",
      description: "An agent's block that also signs found: true: accepted by both, the same record as without it.",
      bytes: withTail('"found":true'),
      body: { found: true },
    },
    {
      id: "valid-nesting-within-limit",
      description: "An unknown member nested 100 arrays deep, within the limit.",
      bytes: withTail(`"note":${"[".repeat(100)}${"]".repeat(100)}`),
    },
  ];
  for (const payload of allowed) {
    const attestation = await attest(signed, key, { form: "jws", signedNull: true, signing: { jwsPayload: payload.bytes } });
    drafts.push({
      id: payload.id,
      covers: ["form:jws-only"],
      description: payload.description,
      response: respond({ ...body, ...payload.body }, attestation),
      call: jwsCall(kid, attestation.jws!),
      offchain: VALID_V2,
      onchain: accepted(recordOf(signed)),
    });
  }

  return drafts.map((draft) => vectorOf("parser-differential", draft));
}

/** The JSON text of an object with members appended before its closing brace. */
function withTailText(text: string, tail: string): string {
  return `${text.slice(0, -1)},${tail}}`;
}

/**
 * The trust-check vector set through both verifiers: the TypeScript verifier (`verifyTrustAttestation`) and
 * `AttestedTrustOracle` on an in-process chain (the call `toAttestationCall` builds, or the vector's own call when
 * the kit refuses to build one). Each verdict must be the vector's; and, on every vector without a `divergence`,
 * the two verifiers must agree (valid off-chain exactly when accepted on-chain), so that the parsers and the
 * verifiers cannot drift apart. The set itself is checked too: it covers every required case, its files match
 * its manifest, its signatures are real, and the generator writes the same vectors again.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttestationCall, toAttestationCall } from "../../src/attestation/onchain-call";
import { TRUST_V2_KNOWN_FIELDS, TRUST_V2_READ_FIELDS } from "../../src/attestation/trust-signed-block";
import { type SignatureStatus, type TrustAttestationVerification, verifyTrustAttestation } from "../../src/attestation/verify";
import { TRUST_ATTESTATION_KIDS } from "../../src/config/service";
import {
  indexEntryOf,
  JWKS_FILE,
  type OnchainExpectation,
  type OnchainRecord,
  readVectorSet,
  REQUIRED_COVERAGE,
  type SigBytes,
  type TrustCheckVector,
  VECTOR_CATEGORIES,
  type VectorCall,
  withoutSignatures,
} from "./format";
import { buildVectors } from "./make/build";
import { loadVectorKeys } from "./make/keys";
import { recordOf } from "./make/responses";
import { attestationFieldNames, type OnchainVerdict, startVectorOracle } from "./onchain-verifier";
import { signatureReality } from "./signatures";

const { index, vectors, files } = readVectorSet();
const jwks = JSON.parse(readFileSync(JWKS_FILE, "utf8")) as JSONWebKeySet;

/** What the TypeScript verifier said, reduced to what a vector states. */
interface OffchainVerdict {
  valid: boolean;
  reason?: string;
  field?: string;
  version?: string;
  sigBytes?: SigBytes;
  sigVerified: SignatureStatus;
  /** For a valid verdict: the record its signed block makes (what the oracle must store), or why it makes none. */
  record?: OnchainRecord | string;
}

/** What the chain was given and what it did. */
interface OnchainOutcome {
  /** The call submitted, and whether the kit built it or the vector's own was used. */
  submitted: { call: VectorCall; by: "toAttestationCall" | "vector" } | undefined;
  /** Why `toAttestationCall` did not build a call, when it did not. */
  buildProblem: string | undefined;
  verdict: OnchainVerdict | null;
}

const offchain = new Map<string, OffchainVerdict>();
const onchain = new Map<string, OnchainOutcome>();

beforeAll(async () => {
  const oracle = await startVectorOracle(jwks, TRUST_ATTESTATION_KIDS);
  for (const vector of vectors) {
    const verdict = await verifyTrustAttestation(vector.response, { jwks, now: new Date(vector.now), ...vector.options });
    offchain.set(vector.id, reduce(verdict));
    const built = buildCall(vector, verdict);
    const call = built.call ?? vector.call;
    onchain.set(vector.id, {
      submitted: call === null ? undefined : { call, by: built.call ? "toAttestationCall" : "vector" },
      buildProblem: built.problem,
      verdict: call === null ? null : await oracle.submit(call, vector.now),
    });
  }
}, 600_000);

// With VECTOR_REPORT=<file>, a table of every vector's expected and actual verdicts is written there.
afterAll(() => {
  const file = process.env.VECTOR_REPORT;
  if (!file) return;
  const rows = vectors.map((vector) => {
    const off = offchain.get(vector.id);
    const on = onchain.get(vector.id);
    const offText = (verdict: { valid: boolean; reason?: string; field?: string } | undefined) =>
      verdict === undefined ? "?" : verdict.valid ? "valid" : `${verdict.reason}/${verdict.field ?? "-"}`;
    const onText = (verdict: OnchainExpectation | OnchainVerdict | null | undefined) =>
      verdict === null || verdict === undefined
        ? "-"
        : "accepted" in verdict
          ? "accepted"
          : `${verdict.error}${verdict.args?.field ? `/${verdict.args.field}` : ""}`;
    const offOk = off !== undefined && offText(off) === offText(vector.expected.offchain);
    const onOk = vector.expected.onchain === null ? on?.submitted === undefined : matches(vector.expected.onchain, on?.verdict ?? null);
    const accepted = on?.verdict != null && "accepted" in on.verdict;
    const agree = vector.divergence !== undefined ? "divergence" : off?.valid === accepted ? "yes" : "NO";
    return `| ${vector.id} | ${offText(vector.expected.offchain)} | ${offOk ? "ok" : offText(off)} | ${onText(vector.expected.onchain)} | ${onOk ? "ok" : onText(on?.verdict)} | ${agree} |`;
  });
  writeFileSync(
    file,
    ["| vector | off-chain expected | actual | on-chain expected | actual | agree |", "|---|---|---|---|---|---|", ...rows, ""].join("\n"),
  );
});

describe("the trust-check vector set", () => {
  it("covers every required case, each category, and no unknown tag", () => {
    const covered = new Set(vectors.flatMap((vector) => vector.covers));
    const missing = Object.keys(REQUIRED_COVERAGE).filter((tag) => !covered.has(tag));
    const unknown = [...covered].filter((tag) => !(tag in REQUIRED_COVERAGE));
    expect({ missing, unknown }).toEqual({ missing: [], unknown: [] });
    for (const category of VECTOR_CATEGORIES)
      expect(vectors.filter((vector) => vector.category === category).length, category).toBeGreaterThan(0);
  });

  it("has one file per manifest entry, each matching its entry", () => {
    expect(files).toEqual(index.map((entry) => entry.file).sort());
    for (const [i, vector] of vectors.entries()) expect(indexEntryOf(vector), vector.id).toEqual(index[i]);
  });

  it("states consistent expectations: a call exactly when there is an on-chain verdict, agreement unless a divergence says why", () => {
    for (const vector of vectors) {
      const { expected } = vector;
      expect(Number.isNaN(Date.parse(vector.now)), vector.id).toBe(false);
      expect(vector.call === null, vector.id).toBe(expected.onchain === null);
      expect(expected.onchainReason !== undefined, vector.id).toBe(expected.onchain === null);
      const accepted = expected.onchain !== null && "accepted" in expected.onchain;
      expect(expected.offchain.valid !== accepted, `${vector.id}: the expectations diverge exactly when divergence says why`).toBe(
        vector.divergence !== undefined,
      );
    }
  });

  it("carries real signatures: every signature verifies under the key set, but where `forged` says what was altered", () => {
    for (const vector of vectors) {
      const reality = signatureReality(vector, jwks);
      if (vector.forged === undefined) {
        expect(reality.jws, `${vector.id}: jws`).not.toBe(false);
        expect(reality.sig, `${vector.id}: sig`).toBe(vector.expected.sigBytes ?? "absent");
      } else {
        expect(reality.jws === false || reality.sig === false, `${vector.id}: forged, so a signature must fail`).toBe(true);
      }
    }
  });

  it("is what the generator writes from the test keys (signatures aside)", async () => {
    const regenerated = await buildVectors(await loadVectorKeys());
    expect(regenerated.map(withoutSignatures)).toEqual(vectors.map(withoutSignatures));
  });

  it("names on-chain fields as the verifier does: AttestationField begins with its read fields, in order, then known ones", () => {
    const names = attestationFieldNames();
    expect(names.slice(0, TRUST_V2_READ_FIELDS.length)).toEqual([...TRUST_V2_READ_FIELDS]);
    for (const name of names.slice(TRUST_V2_READ_FIELDS.length)) expect(TRUST_V2_KNOWN_FIELDS.has(name), name).toBe(true);
  });
});

describe("the TypeScript verifier on the vectors", () => {
  it.each(vectors)("$id", (vector) => {
    const actual = offchain.get(vector.id)!;
    const { offchain: expected, sigBytes } = vector.expected;
    const stated = actual.valid
      ? { valid: true, ...(expected.valid && expected.version !== undefined ? { version: actual.version } : {}) }
      : { valid: false, reason: actual.reason, ...(actual.field === undefined ? {} : { field: actual.field }) };
    expect(stated, `${vector.id}: ${vector.description}`).toEqual(expected);
    if (actual.sigBytes !== undefined) expect(actual.sigBytes, `${vector.id}: the bytes the sig verified over`).toBe(sigBytes);
    if (actual.valid && actual.sigVerified === true && sigBytes !== undefined) {
      expect(actual.sigBytes, `${vector.id}: a verified sig says which bytes it covers`).toBe(sigBytes);
    }
  });
});

describe("AttestedTrustOracle on the vectors", () => {
  it.each(vectors.filter((vector) => vector.expected.onchain !== null))("$id", (vector) => {
    const outcome = onchain.get(vector.id)!;
    expect(
      matches(vector.expected.onchain!, outcome.verdict),
      `${vector.id}: expected ${show(vector.expected.onchain)}, got ${describeOutcome(outcome)}`,
    ).toBe(true);
  });

  it.each(vectors.filter((vector) => vector.expected.onchain === null))("$id: nothing to submit", (vector) => {
    expect(onchain.get(vector.id)!.submitted, vector.id).toBeUndefined();
  });
});

describe("toAttestationCall on the vectors", () => {
  it.each(vectors)("$id", (vector) => {
    const outcome = onchain.get(vector.id)!;
    const expectedOnchain = vector.expected.onchain;
    if (vector.expected.offchain.valid && expectedOnchain !== null && "accepted" in expectedOnchain) {
      expect(outcome.buildProblem, `${vector.id}: a response both verifiers accept must give a call`).toBeUndefined();
    }
    if (outcome.submitted?.by === "toAttestationCall") expect(outcome.submitted.call, `${vector.id}: the call built`).toEqual(vector.call);
    if (vector.call === null) expect(outcome.buildProblem, `${vector.id}: nothing to build`).toBeDefined();
  });
});

describe("the two verifiers agree", () => {
  it.each(vectors.filter((vector) => vector.divergence === undefined))("$id", (vector) => {
    const off = offchain.get(vector.id)!;
    const on = onchain.get(vector.id)!;
    const accepted = on.verdict !== null && "accepted" in on.verdict;
    const said = `${vector.id}: off-chain ${off.valid ? `valid ${show(off.record)}` : `refused (${off.reason}, ${off.field})`}, on-chain ${describeOutcome(on)}`;
    expect(off.valid === accepted, said).toBe(true);
    // Both accept: they must hold the same record (one signed block, one reading).
    if (off.valid && on.verdict !== null && "accepted" in on.verdict) expect(off.record, said).toEqual(on.verdict.accepted);
  });
});

/** The verdict's parts a vector states. */
function reduce(verdict: TrustAttestationVerification): OffchainVerdict {
  return {
    valid: verdict.valid,
    ...(verdict.valid
      ? { version: verdict.version, record: recordOrProblem(verdict.signed) }
      : { reason: verdict.reason, field: verdict.field }),
    ...(verdict.sigBytes === undefined ? {} : { sigBytes: verdict.sigBytes }),
    sigVerified: verdict.verified.sig,
  };
}

function recordOrProblem(signed: Record<string, unknown>): OnchainRecord | string {
  try {
    return recordOf(signed);
  } catch (error) {
    return `no record: ${(error as Error).message}`;
  }
}

/** The call the kit builds for a response (told which bytes the verifier found the `sig` over), or why it does not. */
function buildCall(vector: TrustCheckVector, verdict: TrustAttestationVerification): { call?: VectorCall; problem?: string } {
  try {
    const call = toAttestationCall(vector.response, verdict.sigBytes === undefined ? undefined : { sigBytes: verdict.sigBytes });
    return { call: asVectorCall(call) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

function asVectorCall(call: AttestationCall): VectorCall {
  if (call.form === "jws")
    return { function: "submitJwsAttestation", kid: call.kid, jws: Buffer.from(call.jws!.slice(2), "hex").toString("latin1") };
  return { function: "submitAttestation", kid: call.kid, signedJson: call.signedJson, signature: call.signature };
}

/** Whether an on-chain verdict is the expected one (the expected error arguments only). */
function matches(expected: OnchainExpectation, actual: OnchainVerdict | null): boolean {
  if (actual === null) return false;
  if ("accepted" in expected) return "accepted" in actual && isDeepStrictEqual(actual.accepted, expected.accepted);
  if (!("error" in actual) || actual.error !== expected.error) return false;
  return Object.entries(expected.args ?? {}).every(([name, value]) => String(actual.args[name]) === String(value));
}

function describeOutcome(outcome: OnchainOutcome): string {
  const by = outcome.submitted
    ? ` (call by ${outcome.submitted.by}${outcome.buildProblem ? `; the kit: ${outcome.buildProblem}` : ""})`
    : "";
  return `${show(outcome.verdict)}${by}`;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

// The sybil vocabularies the sources publish, read as one: signals (spec sweep_pattern = SDK spray_pattern) and the
// three severity vocabularies (crosswalk, spec, SDK), each name with a code under the default encoding.
import { beforeAll, describe, expect, it } from "vitest";
import { normalizeSybilSeverity, sameValue } from "../../src/attestation/body-fields.js";
import { verifyTrustAttestation } from "../../src/attestation/verify.js";
import { createJwksResolver } from "../../src/attestation/jwks.js";
import {
  canonicalSybilSeverity,
  DEFAULT_TRUST_ENCODING,
  PUBLISHED_SYBIL_SEVERITIES,
  sybilSeverityCode,
} from "../../src/config/encodings.js";
import { canonicalSybilSignal, SYBIL_SIGNAL_ALIASES, SYBIL_SIGNALS } from "../../src/published/sybil-signals.js";
import { buildTrustCheckResponse, generateTestKeys, jwksOf, TEST_NOW, type TestKeys } from "../support/attestations.js";

let keys: TestKeys;
beforeAll(async () => {
  keys = await generateTestKeys();
});

describe("sybil signals", () => {
  it("read the SDK's spray_pattern as the spec's sweep_pattern, and keep every other id as written", () => {
    expect(SYBIL_SIGNAL_ALIASES).toEqual({ spray_pattern: "sweep_pattern" });
    expect(canonicalSybilSignal("spray_pattern")).toBe("sweep_pattern");
    for (const id of SYBIL_SIGNALS) expect(canonicalSybilSignal(id)).toBe(id);
    expect(canonicalSybilSignal("Spray_Pattern")).toBe("Spray_Pattern");
    expect(canonicalSybilSignal("toString")).toBe("toString");
  });

  it("compare as sets of canonical ids between a body and its signed block", () => {
    expect(sameValue("sybilSignals", ["spray_pattern", "common_funder"], ["common_funder", "sweep_pattern"])).toBe(true);
    expect(sameValue("sybilSignals", ["spray_pattern"], ["sweep_pattern", "common_funder"])).toBe(false);
    expect(sameValue("sybilSignals", ["spray_pattern"], ["score_clustering"])).toBe(false);
    // Other set-valued fields know no aliases.
    expect(sameValue("findings", ["spray_pattern"], ["sweep_pattern"])).toBe(false);
  });

  it("let a response whose body spells a signal the SDK's way verify against a block that spells it the spec's way", async () => {
    const response = await buildTrustCheckResponse(keys.v2, {
      agent: { sybilSeverity: "moderate" },
      extraSigned: { sybilSignals: ["common_funder", "sweep_pattern"] },
    });
    const options = { jwks: createJwksResolver({ keys: jwksOf(keys.v2) }), now: TEST_NOW };
    expect(await verifyTrustAttestation({ ...response, sybilSignals: ["spray_pattern", "common_funder"] }, options)).toMatchObject({
      valid: true,
    });
    expect(await verifyTrustAttestation({ ...response, sybilSignals: ["spray_pattern"] }, options)).toMatchObject({
      valid: false,
      reason: "field-mismatch",
      field: "sybilSignals",
    });
  });
});

describe("sybil severities", () => {
  it("record the three published vocabularies as their sources write them", () => {
    expect(PUBLISHED_SYBIL_SEVERITIES).toEqual({
      crosswalk: [null, "low", "moderate", "elevated", "heavy"],
      spec: ["none", "low", "moderate", "heavy"],
      sdk: ["low", "moderate", "elevated", "heavy"],
    });
  });

  it("read every published name, each with a code under the default encoding; null and none are one", () => {
    const names = new Set<string>();
    for (const vocabulary of Object.values(PUBLISHED_SYBIL_SEVERITIES)) {
      for (const name of vocabulary) {
        const canonical = canonicalSybilSeverity(name);
        names.add(canonical);
        expect(normalizeSybilSeverity(name)).toBe(canonical);
        expect(sybilSeverityCode(name)).toBe(DEFAULT_TRUST_ENCODING.sybilSeverities.indexOf(canonical as never));
      }
    }
    // Their union is exactly the encoding's names.
    expect([...names].sort()).toEqual([...DEFAULT_TRUST_ENCODING.sybilSeverities].sort());
    expect(sybilSeverityCode(null)).toBe(sybilSeverityCode("none"));
  });
});

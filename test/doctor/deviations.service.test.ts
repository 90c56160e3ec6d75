// `trustgate doctor` against the kit's local signing service, as is and configured to differ in each way the doctor
// checks: each deviation turns exactly its own check to "differs" and leaves every other check holding. (Without
// --rpc, onchain-encodings and onchain-p256 could not be checked: they need a chain; they have their own files with one.)
import { describe, expect, it } from "vitest";
import { generateSigningKey } from "../../src/harness/signing";
import { type DoctorReport } from "../../src/doctor/report";
import { doctorAgainst, expectOnly, summaryOf } from "./support";

const NO_CHAIN = ["onchain-encodings", "onchain-p256"] as const;

describe("trustgate doctor against the local service as is", () => {
  it("holds everywhere but onchain-encodings and onchain-p256, which need --rpc", async () => {
    const report = await doctorAgainst();
    expectOnly(report, { couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "onchain-encodings")).toMatch(/--rpc/);
    expect(summaryOf(report, "onchain-p256")).toMatch(/--rpc/);
    expect(summaryOf(report, "sig-bytes")).toMatch(/insertion order/);
    expect(summaryOf(report, "jws-header")).toBe('{"alg":"ES256","kid":"rnwy-trust-v2"} (2 trust-checks)');
    expect(summaryOf(report, "onchain-submit")).toMatch(/^submitJwsAttestation accepted 2 live attestations/);
    // The local service writes issuedAt as the service's sample does, verifiedAt and expiry as toISOString does.
    expect(summaryOf(report, "time-forms")).toBe(
      "issuedAt +00:00, 3 fraction digits, verifiedAt Z, 3 fraction digits, expiry Z, 3 fraction digits: both readers accept them (2 trust-checks)",
    );
    expect(report.requests).toBeLessThanOrEqual(16);
    expect(report.summary).toEqual({ holds: report.checks.length - 2, differs: 0, couldNotCheck: 2, exitCode: 4 });
  });
});

describe("each deviation turns exactly its check to differs", () => {
  it("sig-bytes: the raw sig covers the sorted-key form", async () => {
    const report = await doctorAgainst({ deviations: { trustSigning: { sigSerialization: "sorted" } } });
    expectOnly(report, { differs: ["sig-bytes"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "sig-bytes")).toMatch(/RFC 8785 sorted-key form/);
  });

  it("jws-payload: the JWS carries the sorted-key serialisation of signed", async () => {
    const report = await doctorAgainst({ deviations: { trustSigning: { jwsSerialization: "sorted" } } });
    expectOnly(report, { differs: ["jws-payload"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "jws-payload")).toMatch(/sorted-key form of signed.*same value/);
  });

  it("jws-payload: the JWS carries another value than signed", async () => {
    const report = await doctorAgainst({
      deviations: {
        trustSigning: (signed) => ({
          jwsPayload: new TextEncoder().encode(JSON.stringify({ ...signed, score: Number(signed.score) === 0 ? 1 : 0 })),
        }),
      },
    });
    expectOnly(report, { differs: ["jws-payload"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "jws-payload")).toMatch(/another value than signed \(members score: the kit refuses it\)/);
  });

  // The oracle reads the header by the same rules as the verifier: `typ` and any member order are accepted there too,
  // so the submission holds.
  it("jws-header: typ, and another member order, which the kit's rules accept", async () => {
    for (const header of [
      { alg: "ES256", kid: "rnwy-trust-v2", typ: "JWT" },
      { kid: "rnwy-trust-v2", alg: "ES256" },
    ]) {
      const report = await doctorAgainst({ deviations: { trustSigning: { jwsHeader: header } } });
      expectOnly(report, { differs: ["jws-header"], couldNotCheck: NO_CHAIN });
      expect(summaryOf(report, "jws-header")).toBe(
        `${JSON.stringify(header)} (members ${Object.keys(header).join(", ")}): the kit's JWS rules accept it`,
      );
    }
  });

  it("jws-header: a member the kit's rules refuse (the oracle refuses it too)", async () => {
    const header = { alg: "ES256", kid: "rnwy-trust-v2", jku: "https://keys.example/jwks.json" };
    const report = await doctorAgainst({ deviations: { trustSigning: { jwsHeader: header } } });
    // The chain applies the same header rules: the one deviation shows in both places.
    expectOnly(report, { differs: ["jws-header", "onchain-submit"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "jws-header")).toMatch(/the kit's JWS rules refuse it: its header carries "jku", which is refused$/);
    expect(summaryOf(report, "onchain-submit")).toMatch(/^submitJwsAttestation refused/);
  });

  it("jwks-kids: a missing kid, an extra kid", async () => {
    const missing = await doctorAgainst({ deviations: { jwksOmitKids: ["rnwy-mcp-v1"] } });
    expectOnly(missing, { differs: ["jwks-kids"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(missing, "jwks-kids")).toMatch(/^missing rnwy-mcp-v1 /);

    const extra = await generateSigningKey("rnwy-trust-v3");
    const added = await doctorAgainst({ deviations: { jwksExtraKeys: [extra.publicJwk] } });
    expectOnly(added, { differs: ["jwks-kids"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(added, "jwks-kids")).toMatch(/^extra rnwy-trust-v3 /);
  });

  it("rate-limit-headers: none announced, other limits announced", async () => {
    const none = await doctorAgainst({ rateLimit: false });
    expectOnly(none, { differs: ["rate-limit-headers"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(none, "rate-limit-headers")).toMatch(/announces no rate limit/);

    const other = await doctorAgainst({
      rateLimit: { anonymousPerMinute: 120, keyedPerMinute: 600, riskTerms: { anonymousPerMinute: 5, keyedPerMinute: 60 } },
    });
    expectOnly(other, { differs: ["rate-limit-headers"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(other, "rate-limit-headers")).toBe("the other endpoints announce 120/min, the kit assumes 30/min");
  });

  it("onchain-submit and time-forms: an attestation the oracle refuses (issuedAt as Unix seconds)", async () => {
    const report = await doctorAgainst({
      deviations: { trustSigned: (signed) => ({ ...signed, issuedAt: Math.floor(Date.parse(String(signed.issuedAt)) / 1000) }) },
    });
    expectOnly(report, { differs: ["onchain-submit", "time-forms"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(report, "onchain-submit")).toMatch(/^submitJwsAttestation refused base:\d+:erc8004: AttestationField\w+\(\d+/);
    expect(summaryOf(report, "time-forms")).toMatch(
      /^base:\d+:erc8004 issuedAt \d+ \(a number\): the TypeScript reader refuses it \(not a string\)$/,
    );
  });

  it("time-forms: every RFC 3339 form of the signed times holds, with both readers; a form neither reads differs", async () => {
    const iso = (value: unknown) => new Date(Date.parse(String(value)));
    const east = (value: unknown) => `${new Date(iso(value).getTime() + 330 * 60_000).toISOString().slice(0, 19)}.123456789+05:30`;
    const forms = await doctorAgainst({
      deviations: {
        trustSigned: (signed) => ({
          ...signed,
          issuedAt: east(signed.issuedAt),
          verifiedAt: `${iso(signed.verifiedAt).toISOString().slice(0, 19)}Z`,
          expiry: `${new Date(iso(signed.expiry).getTime() - 480 * 60_000).toISOString().slice(0, 19)}-08:00`,
        }),
      },
    });
    expectOnly(forms, { couldNotCheck: NO_CHAIN });
    expect(summaryOf(forms, "time-forms")).toMatch(
      /^issuedAt \+05:30, 9 fraction digits, verifiedAt Z, no fraction, expiry -08:00, no fraction: both readers accept them/,
    );

    const noColon = await doctorAgainst({
      deviations: { trustSigned: (signed) => ({ ...signed, expiry: String(signed.expiry).replace("Z", "+0000") }) },
    });
    expectOnly(noColon, { differs: ["onchain-submit", "time-forms"], couldNotCheck: NO_CHAIN });
    expect(summaryOf(noColon, "time-forms")).toMatch(
      /expiry "[^"]+\+0000" \(\+0000, 3 fraction digits\): the TypeScript reader refuses it/,
    );
    expect(summaryOf(noColon, "onchain-submit")).toMatch(/AttestationFieldInvalid\(9,/);
  });

  it("time-forms without a local chain: the TypeScript reader judges, the on-chain half could not be checked", async () => {
    const report = await doctorAgainst({}, {}, { submissionSimulator: { unavailable: "no hardhat here" } });
    expectOnly(report, { couldNotCheck: [...NO_CHAIN, "onchain-submit"] });
    expect(summaryOf(report, "time-forms")).toMatch(
      /: the TypeScript reader accepts them \(2 trust-checks\); on-chain reader: could not check \(onchain-submit could not be checked: no hardhat here\)$/,
    );
  });
});

/** One renamed or retyped field per endpoint, each leaving what the doctor's other requests need. */
const FIELD_DEVIATIONS: readonly { endpoint: string; path: string; rewrite: (body: Record<string, unknown>) => unknown; shows: RegExp }[] =
  [
    {
      endpoint: "agents",
      path: "/api/agents",
      rewrite: ({ total, ...rest }) => ({ ...rest, totalCount: total }),
      shows: /unknown totalCount/,
    },
    {
      endpoint: "trust-check",
      path: "/api/trust-check",
      rewrite: ({ name, ...rest }) => ({ ...rest, agentName: name }),
      shows: /unknown agentName/,
    },
    {
      endpoint: "explorer",
      path: "/api/explorer",
      rewrite: (body) => ("agent" in body ? body : { ...body, total: String(body.total) }),
      shows: /total: Invalid input: expected number, received string/,
    },
    {
      endpoint: "explorer-profile",
      path: "/api/explorer",
      rewrite: (body) => ("agent" in body ? { ...body, agent: { ...(body.agent as object), owner: 7 } } : body),
      shows: /agent\.owner: Invalid input: expected string, received number/,
    },
    {
      endpoint: "stats",
      path: "/api/stats",
      rewrite: (body) => ({ ...body, totalAgents: String(body.totalAgents) }),
      shows: /totalAgents: Invalid input/,
    },
    {
      endpoint: "compare",
      path: "/api/compare",
      rewrite: ({ threshold, ...rest }) => ({ ...rest, minScore: threshold }),
      shows: /unknown minScore/,
    },
    {
      endpoint: "reviewer-analysis",
      path: "/api/reviewer-analysis",
      rewrite: (body) => ({ ...body, totalReviews: String(body.totalReviews) }),
      shows: /totalReviews: Invalid input/,
    },
    {
      endpoint: "reviewer",
      path: "/api/reviewer",
      rewrite: ({ total_reviews, ...rest }) => ({ ...rest, totalReviews: total_reviews }),
      shows: /unknown totalReviews/,
    },
    {
      endpoint: "entity",
      path: "/api/entity",
      rewrite: ({ wallet_score, ...rest }) => ({ ...rest, walletScore: wallet_score }),
      shows: /unknown walletScore/,
    },
    {
      endpoint: "mcp-attestation",
      path: "/api/mcp-attestation",
      rewrite: (body) => ({ ...body, mcp_risk_score: String(body.mcp_risk_score) }),
      shows: /mcp_risk_score: Invalid input/,
    },
    {
      endpoint: "risk-terms",
      path: "/api/risk-terms",
      rewrite: ({ recommendation, ...rest }) => ({ ...rest, decision: recommendation }),
      shows: /unknown decision; recommendation: Invalid input/,
    },
    {
      endpoint: "address-ages",
      path: "/api/address-ages",
      rewrite: (body) => ({ ...body, ageDays: String(body.ageDays) }),
      shows: /ageDays: Invalid input/,
    },
    {
      endpoint: "wallet-score",
      path: "/api/wallet-score",
      rewrite: ({ signalDepth, ...rest }) => ({ ...rest, depth: signalDepth }),
      shows: /unknown depth/,
    },
  ];

describe("fields:<endpoint>: a renamed or retyped field turns only its endpoint's check", () => {
  it("covers every endpoint the doctor reads", async () => {
    const { DOCTOR_ENDPOINT_IDS } = await import("../../src/doctor/endpoints");
    expect(FIELD_DEVIATIONS.map((d) => d.endpoint).sort()).toEqual([...DOCTOR_ENDPOINT_IDS].sort());
  });

  for (const deviation of FIELD_DEVIATIONS) {
    it(`fields:${deviation.endpoint}`, async () => {
      const report: DoctorReport = await doctorAgainst({ deviations: { bodies: { [deviation.path]: deviation.rewrite } } });
      const id = `fields:${deviation.endpoint}` as const;
      expectOnly(report, { differs: [id], couldNotCheck: NO_CHAIN });
      expect(summaryOf(report, id)).toMatch(deviation.shows);
    });
  }
});

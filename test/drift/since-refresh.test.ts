import { describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../src/api/client";
import { createJwksResolver } from "../../src/attestation/jwks";
import { MARKDOWN_ROWS_HEADER, markdownRow } from "../../src/cli/markdown-rows";
import { reportJson } from "../../src/cli/write-outputs";
import {
  canonicalSybilSeverity,
  createTrustEncoding,
  DEFAULT_TRUST_ENCODING,
  sybilSeverityCode,
  type TrustEncoding,
} from "../../src/config/encodings";
import { buildReport } from "../../src/drift/report";
import type { ServiceData, ServiceOutcome } from "../../src/drift/service-data";
import { type CompareContext, compareAgent, computedAfterRefresh, errorRow } from "../../src/drift/stages/compare";
import { computedAtOf, fetchServiceOutcome } from "../../src/drift/stages/fetch-verify";
import { triageReason } from "../../src/drift/stages/triage";
import { InvalidArgumentError } from "../../src/errors";
import type { TrustRecordResult } from "../../src/oracle/records";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  generateTestKeys,
  jwksOf,
  TEST_ISSUER,
  TEST_NOW,
} from "../support/attestations";

const NOW = new Date("2026-11-22T12:00:00Z");
const NOW_S = NOW.getTime() / 1000;
const HOUR = 3600;
/** The last nightly refresh: the on-chain records' updatedAt. */
const REFRESH_S = NOW_S - 9 * HOUR;
const REFRESH_ISO = new Date(REFRESH_S * 1000).toISOString();
const subject = { chain: "base", chainId: 8453, agentId: 42n, registry: "erc8004" };
const context: CompareContext = {
  rule: { kind: "threshold", threshold: 51 },
  maxAgeSeconds: 36 * HOUR,
  now: NOW,
  encoding: DEFAULT_TRUST_ENCODING,
};
const gateContext = (maxSybilSeverity: number, encoding: TrustEncoding = DEFAULT_TRUST_ENCODING): CompareContext => ({
  ...context,
  encoding,
  rule: { kind: "gate", gate: "0xgate", policy: { minScore: 51, maxSybilSeverity, maxAge: 36 * HOUR, requireController: false } },
});

function onchain(score: number, sybilCode = 0): TrustRecordResult {
  const tierCode = score >= 75 ? 3 : score >= 51 ? 2 : score >= 30 ? 1 : 0;
  return {
    ok: true,
    key: { agentId: 42n, chainId: 8453, registry: "erc8004" },
    oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
    blockNumber: 1n,
    hasScore: true,
    score,
    tier: tierCode,
    sybilSeverity: sybilCode,
    updatedAt: REFRESH_S,
  };
}

const tierOf = (score: number) => (score >= 75 ? "established" : score >= 51 ? "developing" : score >= 30 ? "limited" : "flagged");

function verified(score: number, options: { sybil?: string | null; computedAt?: Date | null } = {}): ServiceOutcome {
  const data: ServiceData = {
    score,
    tier: tierOf(score),
    sybilSeverity: options.sybil === undefined ? "none" : options.sybil,
    at: new Date(NOW.getTime() - HOUR * 1000),
    ...(options.computedAt !== undefined ? { computedAt: options.computedAt } : {}),
  };
  return { kind: "verified", kid: "rnwy-trust-v2", data };
}

describe("a null sybil severity (no sybil signal) reads as none, everywhere", () => {
  it("the encoding maps null and the legacy none to the code of none", () => {
    expect(sybilSeverityCode(null)).toBe(0);
    expect(sybilSeverityCode("none")).toBe(0);
    expect(sybilSeverityCode("None")).toBe(0);
    expect(sybilSeverityCode("moderate")).toBe(2);
    expect(canonicalSybilSeverity(null)).toBe("none");
    expect(canonicalSybilSeverity(" Elevated ")).toBe("elevated");
    // Under another encoding, null follows the name none, wherever that encoding puts it.
    const shifted = createTrustEncoding({ sybilSeverities: ["low", "none", "moderate", "elevated", "heavy"] });
    expect(sybilSeverityCode(null, shifted)).toBe(1);
    expect(() => sybilSeverityCode("null")).toThrow(InvalidArgumentError);
  });

  it("null vs on-chain code 0: in sync, shown as none, same decision", () => {
    const row = compareAgent(subject, onchain(60, 0), verified(60, { sybil: null }), context);
    expect(row.status).toBe("in-sync");
    expect(row.reason).toBeUndefined();
    expect(row.attested?.sybilSeverity).toBe("none");
    expect(row.decision).toEqual({ onchain: true, attested: true, flipped: false });
  });

  it("the legacy none vs on-chain code 0: in sync too", () => {
    expect(compareAgent(subject, onchain(60, 0), verified(60, { sybil: "none" }), context).status).toBe("in-sync");
    expect(compareAgent(subject, onchain(60, 0), verified(60, { sybil: "NONE" }), context).status).toBe("in-sync");
  });

  it("null vs on-chain code 2 (moderate): drifted, sybil moderate → none", () => {
    const row = compareAgent(subject, onchain(60, 2), verified(60, { sybil: null }), context);
    expect(row.status).toBe("drifted");
    expect(row.reason).toBe("sybil moderate → none");
  });

  it("a gate evaluates null as severity 0, not as an unknown (worst) severity", () => {
    // maxSybilSeverity 0: an unknown code would refuse, and this would look like a pass → fail flip.
    const row = compareAgent(subject, onchain(60, 0), verified(60, { sybil: null }), gateContext(0));
    expect(row.decision).toEqual({ onchain: true, attested: true, flipped: false });
    // A moderate on-chain severity fails that gate; the service's null passes it: fail → pass.
    const cleared = compareAgent(subject, onchain(60, 2), verified(60, { sybil: null }), gateContext(0));
    expect(cleared.decision).toEqual({ onchain: false, attested: true, flipped: true });
    // An unknown name still fails closed.
    const unknown = compareAgent(subject, onchain(60, 0), verified(60, { sybil: "bogus" }), gateContext(4));
    expect(unknown.decision.attested).toBe(false);
  });

  it("under an encoding that puts none at code 1, null matches code 1 and not code 0", () => {
    const shifted = createTrustEncoding({ sybilSeverities: ["low", "none", "moderate", "elevated", "heavy"] });
    const at1 = compareAgent(subject, onchain(60, 1), verified(60, { sybil: null }), { ...context, encoding: shifted });
    expect(at1.status).toBe("in-sync");
    const at0 = compareAgent(subject, onchain(60, 0), verified(60, { sybil: null }), { ...context, encoding: shifted });
    expect(at0).toMatchObject({ status: "drifted", reason: "sybil low → none" });
  });

  it("triage: a listed null matches on-chain code 0, contradicts code 2, and an absent severity is incomplete", () => {
    const options = { rule: context.rule, maxAgeSeconds: 36 * HOUR, now: NOW, encoding: DEFAULT_TRUST_ENCODING, seed: 1 };
    expect(triageReason({ score: 80, tier: "established", sybilSeverity: null }, onchain(80, 0), options)).toBeNull();
    expect(triageReason({ score: 80, tier: "established", sybilSeverity: null }, onchain(80, 2), options)).toBe("mismatch");
    expect(triageReason({ score: 80, tier: "established" }, onchain(80, 0), options)).toBe("incomplete-listing");
  });

  it("a listed null compared without a signed fetch is in sync with code 0", () => {
    const listed: ServiceOutcome = {
      kind: "listed",
      data: { score: 80, tier: "established", sybilSeverity: null, at: new Date(REFRESH_S * 1000) },
    };
    const row = compareAgent(subject, onchain(80, 0), listed, context);
    expect(row).toMatchObject({ status: "in-sync", attested: { sybilSeverity: "none", kid: null } });
  });
});

describe("drift since the last refresh", () => {
  const after = new Date((REFRESH_S + 6 * HOUR) * 1000);
  const same = new Date(REFRESH_S * 1000 + 400); // the same second as the on-chain record (the chain keeps seconds)
  const before = new Date((REFRESH_S - 2 * HOUR) * 1000);

  it("computedAfterRefresh: strictly after the on-chain updatedAt, in whole seconds; null when a time is unknown", () => {
    expect(computedAfterRefresh(after, REFRESH_S)).toBe(true);
    expect(computedAfterRefresh(new Date((REFRESH_S + 1) * 1000), REFRESH_S)).toBe(true);
    expect(computedAfterRefresh(same, REFRESH_S)).toBe(false);
    expect(computedAfterRefresh(before, REFRESH_S)).toBe(false);
    expect(computedAfterRefresh(null, REFRESH_S)).toBeNull();
    expect(computedAfterRefresh(undefined, REFRESH_S)).toBeNull();
    expect(computedAfterRefresh(new Date(Number.NaN), REFRESH_S)).toBeNull();
    expect(computedAfterRefresh(new Date(0), REFRESH_S)).toBeNull(); // a listing without a time
    expect(computedAfterRefresh(after, null)).toBeNull();
  });

  it("a score computed after the refresh: the difference changed since the last refresh", () => {
    const row = compareAgent(subject, onchain(60), verified(45, { computedAt: after }), context);
    expect(row).toMatchObject({ status: "drifted", attestedComputedAt: after.toISOString(), computedAfterRefresh: true });
    expect(row.reason).toBe("score 60 → 45, tier developing → limited (changed since the last refresh)");
  });

  it("a score computed at the refresh: chain and service disagree about the same computation, said first", () => {
    const row = compareAgent(subject, onchain(60), verified(45, { computedAt: same }), context);
    expect(row).toMatchObject({ status: "drifted", attestedComputedAt: same.toISOString(), computedAfterRefresh: false });
    expect(row.reason).toBe(
      `chain and service disagree about the same computation: score 60 → 45, tier developing → limited ` +
        `(attested score computed ${same.toISOString()}, not after the on-chain refresh ${REFRESH_ISO})`,
    );
  });

  it("a score computed before the refresh is not newer either: the same alarm", () => {
    const row = compareAgent(subject, onchain(80, 0), verified(80, { sybil: "heavy", computedAt: before }), context);
    expect(row.computedAfterRefresh).toBe(false);
    expect(row.reason).toMatch(/^chain and service disagree about the same computation: sybil none → heavy \(attested score computed /);
  });

  it("an unknown computation time: the plain difference, and null fields", () => {
    for (const computedAt of [undefined, null]) {
      const row = compareAgent(subject, onchain(60), verified(45, computedAt === undefined ? {} : { computedAt }), context);
      expect(row).toMatchObject({
        attestedComputedAt: null,
        computedAfterRefresh: null,
        reason: "score 60 → 45, tier developing → limited",
      });
    }
  });

  it("in sync rows carry the fields without a reason; rows without a record or without attested data carry null", () => {
    const inSync = compareAgent(subject, onchain(60), verified(60, { computedAt: same }), context);
    expect(inSync).toMatchObject({ status: "in-sync", computedAfterRefresh: false, attestedComputedAt: same.toISOString() });
    expect(inSync.reason).toBeUndefined();
    const noRecord = {
      ...(onchain(0) as object),
      hasScore: false,
      tier: 0,
      sybilSeverity: 0,
      updatedAt: 0,
    } as TrustRecordResult;
    const missingOnchain = compareAgent(subject, noRecord, verified(70, { computedAt: after }), context);
    expect(missingOnchain).toMatchObject({
      status: "missing-onchain",
      attestedComputedAt: after.toISOString(),
      computedAfterRefresh: null,
    });
    const failed = compareAgent(subject, onchain(60), { kind: "error", message: "HTTP 500" }, context);
    expect(failed).toMatchObject({ status: "error", attestedComputedAt: null, computedAfterRefresh: null });
    expect(errorRow(subject, "x")).toMatchObject({ attestedComputedAt: null, computedAfterRefresh: null });
  });

  it("the verdict's issuedAt is the computation time of a v2 block only", () => {
    const issued = new Date("2026-11-22T03:00:00Z");
    expect(
      computedAtOf({ version: "v2", signed: { issuedAt: issued.toISOString(), verifiedAt: NOW.toISOString() }, issuedAt: issued }),
    ).toEqual(issued);
    expect(computedAtOf({ version: "v1", signed: { attestedAt: issued.toISOString() }, issuedAt: issued })).toBeNull();
    expect(computedAtOf({ version: "v2", signed: { expiry: NOW.toISOString() }, issuedAt: issued })).toBeNull();
    expect(computedAtOf({ version: "v2", signed: { issuedAt: "x" }, issuedAt: undefined })).toBeNull();
  });

  it("JSON and Markdown show when the attested score was computed and whether that was after the refresh", () => {
    const rows = [
      compareAgent({ ...subject, agentId: 1n }, onchain(60), verified(45, { computedAt: after }), context),
      compareAgent({ ...subject, agentId: 2n }, onchain(60), verified(45, { computedAt: same }), context),
      compareAgent({ ...subject, agentId: 3n }, onchain(60), verified(60), context),
    ];
    const report = buildReport(rows, {
      source: {
        rpc: "http://127.0.0.1:1",
        oracle: "0x1",
        api: "http://127.0.0.1:2",
        issuer: "http://127.0.0.1:2",
        chainId: 8453,
        blockNumber: "1",
      },
      decisionRule: "score >= 51",
      maxAgeSeconds: 36 * HOUR,
      encoding: {
        tiers: DEFAULT_TRUST_ENCODING.tiers,
        sybilSeverities: DEFAULT_TRUST_ENCODING.sybilSeverities,
        checked: 3,
        contradictions: 0,
        consistent: true,
        examples: [],
        observed: {},
        sybil: { checked: 0, contradictions: 0, consistent: true, examples: [], observed: {} },
      },
      generatedAt: NOW,
    });
    const json = JSON.parse(reportJson(report)) as typeof report;
    const byId = new Map(json.agents.map((r) => [r.agentId, r]));
    expect(byId.get("1")).toMatchObject({ attestedComputedAt: after.toISOString(), computedAfterRefresh: true });
    expect(byId.get("2")).toMatchObject({ attestedComputedAt: same.toISOString(), computedAfterRefresh: false });
    expect(byId.get("3")).toMatchObject({ attestedComputedAt: null, computedAfterRefresh: null });

    // The Markdown rows (the summary's and --markdown-rows's).
    const lines = [...MARKDOWN_ROWS_HEADER, ...report.agents.map((r) => markdownRow(r))];
    expect(lines).toContain(
      "| Status | Flip | Agent | On-chain | Tier | Sybil | Updated | Attested | Tier | Sybil | Δ | Computed | vs. refresh | Refresh on-chain | Reason |",
    );
    const line = (id: string) => lines.find((l) => l.includes(`\`base:${id}:erc8004\``))!;
    // Hand-built verified outcomes do not say whether they can be submitted: not refreshable, and said so (the
    // sentence is in the JSON's refresh.reason).
    const NOT_CHECKED = "no:form";
    expect(json.agents[0]!.refresh?.reason).toBe("the attestation cannot be submitted on-chain: it was not checked whether it can be");
    expect(line("1")).toContain(
      `| -15 | ${after.toISOString()} | after | ${NOT_CHECKED} | score 60 → 45, tier developing → limited (changed since the last refresh) |`,
    );
    expect(line("2")).toContain(
      `| -15 | ${same.toISOString()} | not after | ${NOT_CHECKED} | chain and service disagree about the same computation: score 60 → 45`,
    );
    expect(line("3")).toMatch(/\| 0 \| - \| - \| - \| {2}\|$/);
  });
});

describe("a verified attestation, end to end through fetchServiceOutcome and compareAgent", () => {
  const computed = new Date(TEST_NOW.getTime() - 5 * HOUR * 1000); // when the service scored the agent
  const signedAt = new Date(TEST_NOW.getTime() - 60_000); // when it signed the attestation
  const refreshS = Math.floor(TEST_NOW.getTime() / 1000) - 9 * HOUR; // before the computation
  const at = { ...context, now: TEST_NOW };

  async function outcomeOf(body: unknown, keys: Awaited<ReturnType<typeof generateTestKeys>>): Promise<ServiceOutcome> {
    const api = { trustCheck: async () => body } as unknown as TrustApiClient;
    return fetchServiceOutcome(
      api,
      { chain: "base", agentId: 42n, registry: "erc8004" },
      {
        issuer: TEST_ISSUER,
        jwks: createJwksResolver({ keys: jwksOf(keys.v1, keys.v2).keys as never }),
        now: () => TEST_NOW,
      },
    );
  }

  function record(score: number, sybilCode: number, updatedAtSeconds: number): TrustRecordResult {
    return {
      ...(onchain(score, sybilCode) as object),
      updatedAt: updatedAtSeconds,
    } as TrustRecordResult;
  }

  it("a signed null sybil severity is none; the signed issuedAt (not verifiedAt) is the computation time", async () => {
    const keys = await generateTestKeys();
    const body = await buildTrustCheckResponse(keys.v2, {
      agent: { agentId: "42", score: 60, tier: "developing", sybilSeverity: null },
      issuedAt: computed,
      verifiedAt: signedAt,
    });
    const outcome = await outcomeOf(body, keys);
    expect(outcome.kind).toBe("verified");
    if (outcome.kind !== "verified") return;
    expect(outcome.data.sybilSeverity).toBe("none");
    expect(outcome.data.computedAt).toEqual(computed);

    const inSync = compareAgent(subject, record(60, 0, refreshS), outcome, at);
    expect(inSync).toMatchObject({
      status: "in-sync",
      attested: { sybilSeverity: "none" },
      attestedComputedAt: computed.toISOString(),
      computedAfterRefresh: true,
    });
    const moderate = compareAgent(subject, record(60, 2, refreshS), outcome, at);
    expect(moderate).toMatchObject({ status: "drifted", reason: "sybil moderate → none (changed since the last refresh)" });
    // The chain was refreshed after that computation and still says something else: the alarming case.
    const later = compareAgent(subject, record(66, 0, Math.floor(computed.getTime() / 1000) + 60), outcome, at);
    expect(later.computedAfterRefresh).toBe(false);
    expect(later.reason).toMatch(/^chain and service disagree about the same computation: score 66 → 60/);
  });

  it("a v1 attestation does not tell the computation time", async () => {
    const keys = await generateTestKeys();
    const body = await buildV1TrustCheckResponse(keys.v1, {
      agent: { agentId: 42, score: 60, tier: "developing", sybilSeverity: "none" },
      issuedAt: computed,
    });
    const outcome = await outcomeOf(body, keys);
    expect(outcome.kind).toBe("verified");
    if (outcome.kind !== "verified") return;
    expect(outcome.data.computedAt).toBeNull();
    const row = compareAgent(subject, record(55, 0, refreshS), outcome, at);
    expect(row).toMatchObject({ attestedComputedAt: null, computedAfterRefresh: null, reason: "score 55 → 60" });
  });
});

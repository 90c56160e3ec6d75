// `trustgate doctor --rpc`: the on-chain checks against the local Base simulation (the reference oracle at the Base
// address, served on loopback HTTP). The oracle holds the listing's current data for every listed agent: first with
// the codes of the kit's encoding (every check holds, and onchain-submit runs on a local fork of that chain), then
// with sybil or tier codes that contradict the listing, or read under another configured encoding (only
// onchain-encodings differs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainIdOf } from "../../src/config/chains";
import { createTrustEncoding, sybilSeverityCode, tierCode } from "../../src/config/encodings";
import { type BaseSimulation, startBaseSimulation } from "../../src/harness/devnet/base-simulation";
import type { OracleRecordInput } from "../../src/harness/devnet/publish-records";
import { doctorAgainst, expectOnly, recentPopulation, summaryOf } from "./support";

interface Listed {
  agentId: number;
  chain: string;
  registry: string;
  score: number;
  tier: string;
  sybilSeverity: string | null;
  updatedAt: string;
}

let base: BaseSimulation;
/** Runs so far: each scores its population a minute later, so that its records are newer than the last run's. */
let runs = 0;

beforeAll(async () => {
  base = await startBaseSimulation({ http: true, hardhatConfig: "standalone" });
});
afterAll(async () => {
  await base?.close();
});

/** Publishes, for every agent of the service's first listing page, a record holding what the page lists. */
async function publishListing(
  serviceUrl: string,
  edit: (record: OracleRecordInput, index: number) => OracleRecordInput = (r) => r,
): Promise<void> {
  const page = (await (await fetch(`${serviceUrl}/api/agents?limit=25`)).json()) as { agents: Listed[] };
  const records = page.agents.map((a, i) =>
    edit(
      {
        agentId: a.agentId,
        chainId: chainIdOf(a.chain),
        registry: a.registry,
        score: a.score,
        tier: tierCode(a.tier),
        sybilSeverity: sybilSeverityCode(a.sybilSeverity),
        updatedAt: new Date(a.updatedAt),
      },
      i,
    ),
  );
  await base.publish(records);
}

/** The doctor with `--rpc` (and `--oracle`, the Base address the simulation uses), the oracle first set by `prepare`. */
function doctorWithChain(prepare: (serviceUrl: string) => Promise<void>, config: Parameters<typeof doctorAgainst>[1] = {}) {
  const population = recentPopulation(new Date(Date.now() - 3_600_000 + 60_000 * runs++));
  return doctorAgainst({ population }, { rpcUrl: base.rpcUrl!, oracle: base.oracle, ...config }, {}, prepare);
}

describe("trustgate doctor --rpc", () => {
  it("holds everywhere when the oracle holds the listing's data under the kit's encoding; the submission runs on a fork", async () => {
    const report = await doctorWithChain((url) => publishListing(url));
    expectOnly(report, {});
    expect(summaryOf(report, "onchain-encodings")).toMatch(
      /^25 records: tier codes match their scores; tier and sybil codes of 25 agreeing with the listing$/,
    );
    expect(summaryOf(report, "onchain-submit")).toMatch(/\(a local fork of http:\/\/127\.0\.0\.1:\d+\)$/);
    expect(summaryOf(report, "onchain-p256")).toMatch(/^a precompile verifies P-256 at 0x100 .*6,900 gas: EIP-7951/);
    expect(report.target.rpc).toBe(base.rpcUrl);
    expect(report.summary.exitCode).toBe(0);
  });

  it("differs when sybil codes contradict the listing", async () => {
    const report = await doctorWithChain((url) =>
      publishListing(url, (r, i) => (i === 3 ? { ...r, sybilSeverity: (r.sybilSeverity + 2) % 5 } : r)),
    );
    expectOnly(report, { differs: ["onchain-encodings"] });
    expect(summaryOf(report, "onchain-encodings")).toMatch(
      /^1 codes contradict the listing \(\w+:\d+:erc8004 sybil code \d is \w+, listed \w+\)/,
    );
  });

  it("differs when a tier code contradicts the record's score and the listing", async () => {
    const report = await doctorWithChain((url) => publishListing(url, (r, i) => (i === 0 ? { ...r, tier: (r.tier + 1) % 4 } : r)));
    expectOnly(report, { differs: ["onchain-encodings"] });
    expect(summaryOf(report, "onchain-encodings")).toMatch(/^1 tier codes contradict their scores .*; 1 codes contradict the listing/);
  });

  it("differs when the configured encoding is not the one the records were written with", async () => {
    const encoding = createTrustEncoding({ tiers: ["established", "developing", "limited", "flagged"] });
    const report = await doctorWithChain((url) => publishListing(url), { encoding });
    expectOnly(report, { differs: ["onchain-encodings"] });
    expect(summaryOf(report, "onchain-encodings")).toMatch(
      /under tiers established,developing,limited,flagged, sybil none,low,moderate,elevated,heavy$/,
    );
  });
});

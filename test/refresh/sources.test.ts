// The sources of a refresh, apart from the chain: a watch list read by the drift job's agent-list reader, the agents
// and setup a drift state file gives, and the fresh drift run each source asks for (a stand-in run records the
// configuration it is given). The devnet test runs them for real.
import { describe, expect, it } from "vitest";
import { parseAgentRefList } from "../../src/agent/agent-ref";
import type { DriftConfig } from "../../src/drift/config";
import { stateLine } from "../../src/drift/state/codec";
import { stateHeader } from "../../src/drift/state/header";
import { readDriftState } from "../../src/drift/state/read";
import type { DriftReport } from "../../src/drift/types";
import { planRefresh } from "../../src/refresh/plan";
import { refreshAttestedOracle } from "../../src/refresh/refresh";
import { resolveRefreshSource, type RefreshDriftSetup } from "../../src/refresh/source";
import { refreshStateAgents } from "../../src/refresh/state-agents";
import { readWatchList } from "../../src/refresh/watch-list";
import { report as driftReport, row } from "../cli/report-fixture";
import { ENTRY, file, SCOPE } from "../drift/state/lines";
import { NOW } from "../drift/stages/fixtures";

const ATTESTED = "0x00000000000000000000000000000000000A77e5" as const;
const SETUP: RefreshDriftSetup = {
  rpcUrl: "http://127.0.0.1:8545",
  apiUrl: "http://127.0.0.1:8787",
  issuer: "http://127.0.0.1:8787",
  jwks: "http://127.0.0.1:8787/.well-known/jwks.json",
  maxAgeSeconds: 3600,
  concurrency: 2,
  encoding: {
    tiers: ["flagged", "limited", "developing", "established"],
    sybilSeverities: ["none", "low", "moderate", "elevated", "heavy"],
  },
};

/** A stand-in drift run: records the configuration, answers a report of chain `chainId`. */
function recordingRun(chainId = 8453) {
  const configs: DriftConfig[] = [];
  const report = driftReport([]) as unknown as DriftReport;
  const run = (config: DriftConfig) => {
    configs.push(config);
    return Promise.resolve({ ...report, source: { ...report.source, chainId } } as DriftReport);
  };
  return { configs, run };
}

function stateFile(scope: Partial<typeof SCOPE>, agents: string[]): string {
  const lines = [stateLine.header(stateHeader({ ...SCOPE, ...scope }, NOW, null))];
  for (const agent of agents) lines.push(stateLine.agent({ ...ENTRY, agent }));
  return file(lines);
}

// Named so that the watch runs name their upstream: with none, the source reads the attested oracle's upstream() from the chain.
const BASE_ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" as const;

describe("readWatchList", () => {
  it("reads one reference a line with the drift job's syntax, skipping comments and blank lines, each agent once", () => {
    const text = "# watched\nbase:16907\n\n  polygon:7:erc8004   # the escrow's agent\nbase:16907:erc8004\nethereum:3:olas\n";
    expect(readWatchList(text, "--watch w.txt")).toEqual({ agents: parseAgentRefList("base:16907, polygon:7, ethereum:3:olas") });
  });

  it("names the file and the line of a reference that does not parse, and refuses a list with no agent", () => {
    expect(() => readWatchList("base:1\nbase:x\n", "--watch w.txt")).toThrow(/^--watch w\.txt, line 2: Invalid agent "base:x"/);
    expect(() => readWatchList("# nothing yet\n\n", "--watch w.txt")).toThrow("--watch w.txt names no agent");
  });

  it("reads the records listing npm run keys -- --records --json writes: its agents, and the oracle and chain it names", () => {
    const listing = {
      kid: "rnwy-trust-v2",
      oracle: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      chainId: 31337,
      fromBlock: "0",
      revoked: true,
      current: 2,
      records: [
        { agent: "base:1:erc8004", agentId: "1", chainId: 8453, registry: "erc8004", current: true },
        { agent: "polygon:7:erc8004", agentId: "7", chainId: 137, registry: "erc8004", current: true },
        { agent: "base:1:erc8004", agentId: "1", chainId: 8453, registry: "erc8004", current: false },
      ],
    };
    expect(readWatchList(`${JSON.stringify(listing, null, 2)}\n`, "--watch l.json")).toEqual({
      agents: parseAgentRefList("base:1:erc8004, polygon:7:erc8004"),
      attestedOracle: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      chainId: 31337,
    });
  });

  it("refuses a listing without its oracle, chain, records or agents, and JSON that does not parse, naming what is wrong", () => {
    const good = { oracle: "0x5FbDB2315678afecb367f032d93F642f64180aa3", chainId: 31337, records: [{ agent: "base:1" }] };
    const read = (value: unknown) => () => readWatchList(JSON.stringify(value), "--watch l.json");
    expect(read({ ...good, oracle: "0x12" })).toThrow(
      /^--watch l\.json: expected a records listing .*Invalid oracle of --watch l\.json "0x12"/,
    );
    expect(read({ ...good, chainId: "31337" })).toThrow(
      "--watch l.json: expected a records listing (npm run keys -- --records <kid> --json) with oracle, chainId and records[].agent; its chainId is missing",
    );
    expect(read({ ...good, records: undefined })).toThrow("it has no records array");
    expect(read({ ...good, records: [] })).toThrow("--watch l.json lists no record: there is nothing to restore");
    expect(read({ ...good, records: [{ agent: "base:x" }] })).toThrow(/^--watch l\.json, records\[0\]: Invalid agent "base:x"/);
    expect(read({ ...good, records: [{}] })).toThrow("--watch l.json: records[0] has no agent (chain:id:registry)");
    expect(() => readWatchList("{ not json", "--watch l.json")).toThrow(/^--watch l\.json is not valid JSON: /);
  });
});

describe("refreshStateAgents", () => {
  it("gives every agent of the state, its oracles, chain, threshold rule and encoding", () => {
    const path = stateFile({ attestedOracle: ATTESTED, rule: "score >= 60" }, ["base:erc8004:1", "polygon:olas:22"]);
    const state = refreshStateAgents(readDriftState(path)!);
    expect(state.agents).toEqual(parseAgentRefList("base:1, polygon:22:olas"));
    expect([state.oracle, state.attestedOracle, state.chainId, state.rule]).toEqual([SCOPE.oracle, ATTESTED, 8453, { threshold: 60 }]);
    expect(state.encoding.tiers).toEqual(SCOPE.encoding.tiers);
  });

  it("reads a gate rule back as the gate (its policy is read again from the chain)", () => {
    const gate = "0x000000000000000000000000000000000000dEaD";
    const path = stateFile({ rule: `gate ${gate} (minScore 51, maxSybilSeverity 2, maxAge 129600s)` }, ["base:erc8004:1"]);
    expect(refreshStateAgents(readDriftState(path)!).rule).toEqual({ gate });
  });

  it("refuses a state with no agent, or a rule it cannot read back, naming the file", () => {
    const empty = stateFile({}, []);
    expect(() => refreshStateAgents(readDriftState(empty)!)).toThrow(`--state ${empty}: the state holds no agent yet`);
    const odd = stateFile({ rule: "score > 51" }, ["base:erc8004:1"]);
    expect(() => refreshStateAgents(readDriftState(odd)!)).toThrow(`--state ${odd}: its header's decision rule "score > 51"`);
  });
});

describe("resolveRefreshSource", () => {
  it("hands a report through, running no drift", async () => {
    const { configs, run } = recordingRun();
    const report = driftReport([]);
    expect(await resolveRefreshSource({ kind: "report", report }, { runDrift: run })).toEqual({ report, notes: [] });
    expect(configs).toEqual([]);
  });

  it("runs a watch list as a list drift reading the attested oracle, with its threshold", async () => {
    const { configs, run } = recordingRun();
    const agents = parseAgentRefList("base:1, base:2");
    const resolved = await resolveRefreshSource(
      { kind: "watch", agents, attestedOracle: ATTESTED, oracle: BASE_ORACLE, threshold: 70, drift: SETUP },
      { runDrift: run },
    );
    expect(configs).toEqual([
      {
        ...SETUP,
        oracle: BASE_ORACLE,
        attestedOracle: ATTESTED,
        scope: { kind: "list", agents },
        threshold: 70,
      },
    ]);
    expect(resolved.drift).toBe(resolved.report);
    expect(resolved.notes).toEqual(["watch list: 2 agents, a fresh drift run over them"]);
  });

  it("runs the state's agents with the setup its header records, and refuses what does not match it", async () => {
    const { configs, run } = recordingRun();
    const path = stateFile({ attestedOracle: ATTESTED, rule: "score >= 60" }, ["base:erc8004:1"]);
    const { encoding: _encoding, ...drift } = SETUP;
    await resolveRefreshSource({ kind: "state", path, drift }, { runDrift: run });
    expect(configs).toEqual([
      {
        ...drift,
        encoding: SCOPE.encoding,
        oracle: SCOPE.oracle,
        attestedOracle: ATTESTED,
        scope: { kind: "list", agents: parseAgentRefList("base:1") },
        threshold: 60,
      },
    ]);
    const other = "0x0000000000000000000000000000000000000B0b" as const;
    await expect(resolveRefreshSource({ kind: "state", path, attestedOracle: other, drift }, { runDrift: run })).rejects.toThrow(
      `--state ${path} was written for the attested oracle ${ATTESTED}, not --attested-oracle ${other}`,
    );
    const noAttested = stateFile({}, ["base:erc8004:1"]);
    await expect(resolveRefreshSource({ kind: "state", path: noAttested, drift }, { runDrift: run })).rejects.toThrow(
      "its runs read no attested oracle; give the one to push to with --attested-oracle <address>",
    );
    await expect(resolveRefreshSource({ kind: "state", path, drift }, { runDrift: recordingRun(137).run })).rejects.toThrow(
      `--state ${path} was written for chain 8453, but --rpc serves chain 137`,
    );
    await expect(resolveRefreshSource({ kind: "state", path: `${path}.absent`, drift }, { runDrift: run })).rejects.toThrow(
      "no such state file, or an empty one",
    );
  });
});

describe("refreshAttestedOracle with a source", () => {
  it("plans the fresh drift run's report by the same rules as the report itself (a dry run sends nothing)", async () => {
    const rows = [
      row({
        agentId: "5",
        status: "missing-onchain",
        onchain: null,
        scoreDelta: null,
        refresh: { possible: true, reason: "", kid: "rnwy-trust-v2", keyStatus: "installed", expiresAt: null },
      }),
    ];
    const made = driftReport(rows) as unknown as DriftReport;
    const configs: DriftConfig[] = [];
    const runDrift = (config: DriftConfig) => (configs.push(config), Promise.resolve(made));
    const agents = parseAgentRefList("base:5");
    const options = { now: NOW, dryRun: true, runDrift } as unknown as Parameters<typeof refreshAttestedOracle>[1];
    const result = await refreshAttestedOracle(
      { kind: "watch", agents, attestedOracle: ATTESTED, oracle: BASE_ORACLE, drift: SETUP },
      options,
    );
    expect(configs.map((config) => config.scope)).toEqual([{ kind: "list", agents }]);
    expect(result).toEqual({ plan: planRefresh(made, { now: NOW }) });
    expect(result.plan.due.map((entry) => entry.agent)).toEqual(["base:5:erc8004"]);
  });
});

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Abi, type Address, createPublicClient, createWalletClient, decodeFunctionData, getAddress, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTrustApiClient } from "../../src/api/client";
import { createJwksResolver } from "../../src/attestation/jwks";
import { main } from "../../src/cli/main";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { runDrift } from "../../src/drift/run";
import { scanAllAgents } from "../../src/drift/scan-all";
import { DRIFT_STATUSES, type DriftReport } from "../../src/drift/types";
import { InvalidArgumentError } from "../../src/errors";
import { startDemoDriftEnvironment } from "../../src/harness/demo";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { multicall3Abi } from "../../src/oracle/multicall3-abi";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server";

/**
 * Runs the real command line in process and captures its streams. `--demo` gets the harness's demo environment
 * directly (the command line loads it by package name, `trustgate/harness`: see test/cli/demo.test.ts).
 */
async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: {
      write: (chunk: string) => {
        stdout += chunk;
        return true;
      },
    },
    stderr: {
      write: (chunk: string) => {
        stderr += chunk;
        return true;
      },
    },
    env: { CI: "true", ...env },
    isTTY: false,
  };
  const code = await main(["drift", ...argv], io, { startEmbedded: startDemoDriftEnvironment });
  return { code, stdout, stderr };
}

const endpoints = (env: EmbeddedDriftEnvironment) => ["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle];

describe("trustgate drift --demo, the embedded default", () => {
  it("reports every status, flips in both directions and exits 3; the JSON has the pinned shape", async () => {
    const dir = mkdtempSync(join(tmpdir(), "drift-"));
    const file = join(dir, "report.json");
    const { code, stdout, stderr } = await cli(["--demo", "--json", file, "--rows", "5"]);
    expect(code).toBe(3);
    expect(stderr).toContain("using the embedded local Base chain and trust service");
    expect(stdout).toMatch(/DRIFT: \d+ gate decisions flip and 1 attestation is invalid \(exit 3\)/);
    const report = JSON.parse(readFileSync(file, "utf8")) as DriftReport;
    expect(report.source.chainId).toBe(8453);
    expect(report.source.oracle).toBe("0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4");
    for (const status of DRIFT_STATUSES) expect(report.summary.byStatus[status], status).toBeGreaterThan(0);
    expect(report.summary.flips.passToFail).toBeGreaterThan(0);
    expect(report.summary.flips.failToPass).toBeGreaterThan(0);
    expect(report.summary.encoding.consistent).toBe(true);
    expect(report.summary.encoding.sybil.checked).toBeGreaterThan(0);
    expect(report.summary.encoding.sybil).toMatchObject({ consistent: true, contradictions: 0 });
    expect(stdout).toMatch(/sybil encoding: {3}consistent with sybil none,low,moderate,elevated,heavy/);
    expect(report.summary.triage!.fetchesSaved).toBeGreaterThan(report.summary.triage!.signedFetches);
    const row = report.agents[0]!;
    expect(Object.keys(row).sort()).toEqual(
      [
        "agentId",
        "attested",
        "attestedComputedAt",
        "chain",
        "chainId",
        "computedAfterRefresh",
        "decision",
        "onchain",
        "reason",
        "refresh",
        "registry",
        "scoreDelta",
        "status",
      ].sort(),
    );
    expect(row.decision.flipped).toBe(true);
    // The flip is a drifted row with a verified signed attestation: assessed for an on-chain refresh, kid unchecked
    // (no --attested-oracle); refreshable rows are counted and change nothing in the exit code.
    expect(row.refresh).toMatchObject({ possible: true, keyStatus: "unchecked", call: { function: "submitJwsAttestation" } });
    expect(report.summary.refreshable).toBe(report.agents.filter((r) => r.refresh?.possible).length);
    expect(report.summary.refreshable).toBeGreaterThan(0);
    expect(report.source.attestedOracle).toBeUndefined();
    expect(Object.keys(report.summary).sort()).toEqual(
      ["agents", "byStatus", "encoding", "flips", "newestUpdatedAt", "oldestUpdatedAt", "refreshable", "triage", "unverified"].sort(),
    );
    // The scenario's one error and five missing attestations stay within the default 1 %: exit 3, not 4.
    const unverified = report.summary.byStatus.error + report.summary.byStatus["missing-attestation"];
    expect(report.summary.unverified).toEqual({
      count: unverified,
      fraction: unverified / report.summary.agents,
      limit: { kind: "percent", value: 1 },
      allowed: Math.floor(report.summary.agents / 100),
      exceeded: false,
    });
    const stale = report.agents.filter((r) => r.status === "stale-onchain");
    expect(new Set(stale.map((r) => r.chain))).toEqual(new Set(["polygon"]));
  });

  it("prints only JSON on stdout with --json -", async () => {
    const { code, stdout } = await cli(["--demo", "--json", "-", "--audit-lie-rate", "1"]);
    expect(code).toBe(3);
    const report = JSON.parse(stdout) as DriftReport;
    expect(report.version).toBe(1);
    expect(report.agents.length).toBe(report.summary.agents);
  });

  it("reports a sybil mapping the chain contradicts: --sybil-encoding with heavy and elevated swapped", async () => {
    const { stdout } = await cli([
      "--demo",
      "--json",
      "-",
      "--audit-lie-rate",
      "1",
      "--sybil-encoding",
      "none,low,moderate,heavy,elevated",
    ]);
    const report = JSON.parse(stdout) as DriftReport;
    const sybil = report.summary.encoding.sybil;
    expect(sybil.consistent).toBe(false);
    expect(sybil.contradictions).toBeGreaterThan(0);
    // The chain writes the kit's default codes: heavy 4, elevated 3, seen under the names the service states.
    for (const [name, codes] of Object.entries(sybil.observed))
      expect(codes, name).toEqual([DEFAULT_TRUST_ENCODING.sybilSeverities.indexOf(name as never)]);
    expect(sybil.examples[0]).toMatch(/sybilCode=[34] \(stated (heavy|elevated), code [34]; (attestation|listing)\)$/);
    expect(report.summary.encoding.consistent).toBe(true);
  });
});

describe("trustgate drift against explicit endpoints", () => {
  let env: EmbeddedDriftEnvironment;
  beforeAll(async () => {
    env = await startEmbeddedDriftEnvironment({
      size: 400,
      faults: false,
      staleChain: null,
      delisted: 0,
      advance: { changedFraction: 0, newAgents: 0 },
    });
  });
  afterAll(async () => env?.close());

  it("exits 0 when chain and service agree, for an --agents list", async () => {
    const agents = env.served.agents
      .slice(0, 6)
      .map((a) => `${a.chain}:${a.agentId}:${a.registry}`)
      .join(",");
    const { code, stdout } = await cli([...endpoints(env), "--agents", agents, "--rate", "10000"]);
    expect(stdout).toContain("6 agents checked");
    expect(stdout).toContain("6 in-sync");
    expect(code).toBe(0);
  });

  it("reads the oracle in calls of the size the embedded chain asks for (readChunkSize), and refuses a bad size first", async () => {
    const sizes: number[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input).startsWith(env.rpcUrl) && typeof init?.body === "string") {
        for (const call of [JSON.parse(init.body) as { method: string; params: [{ to?: string; data?: Hex }] }].flat()) {
          if (call.method !== "eth_call" || call.params[0].to?.toLowerCase() !== env.multicall3.toLowerCase()) continue;
          const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: call.params[0].data! });
          if (functionName === "aggregate3") sizes.push((args[0] as readonly unknown[]).length);
        }
      }
      return realFetch(input, init);
    });
    try {
      const sink = { write: () => true };
      const io = { stdout: sink, stderr: sink, env: { CI: "true" }, isTTY: false };
      const code = await main(["drift", "--demo", "--quiet", "--rate", "100000"], io, {
        startEmbedded: async () => ({ ...env, readChunkSize: 40, close: () => {} }),
      });
      expect(code).toBe(0);
      const listed = env.served.agents.length;
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(listed);
      expect(sizes).toHaveLength(Math.ceil(listed / 40));
      expect(Math.max(...sizes)).toBe(40);

      sizes.length = 0;
      spy.mockClear();
      const config = { rpcUrl: env.rpcUrl, oracle: env.oracle, apiUrl: env.apiUrl, issuer: env.issuer, jwks: env.jwksUrl };
      for (const readChunkSize of [0, 2.5, 5_001]) {
        const run = runDrift({
          ...config,
          scope: { kind: "all" },
          maxAgeSeconds: 86_400,
          concurrency: 1,
          encoding: DEFAULT_TRUST_ENCODING,
          readChunkSize,
        });
        await expect(run).rejects.toThrow(InvalidArgumentError);
        await expect(run).rejects.toThrow(`Invalid readChunkSize ${readChunkSize}: expected an integer from 1 to 5000`);
      }
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("exits 2 with one line when the RPC is unreachable or an agent spec is bad", async () => {
    const down = await cli(["--rpc", "http://127.0.0.1:9", "--api", env.apiUrl, "--agents", "base:1"]);
    expect(down.code).toBe(2);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    expect(down.stderr).toContain("Cannot reach the RPC at http://127.0.0.1:9");
    const bad = await cli([...endpoints(env), "--agents", "basse:1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Did you mean "base"');
  });

  it("turns an attestation signed by a key outside the JWKS into invalid-attestation, and 5xx / 429 into rows", async () => {
    const agents = env.served.agents.slice(0, 4).map((a) => `${a.chain}:${a.agentId}:${a.registry}`);
    env.service.injectFault({ kind: "unknown-kid", times: 1 });
    const dir = mkdtempSync(join(tmpdir(), "drift-"));
    const first = await cli([
      ...endpoints(env),
      "--agents",
      agents.join(","),
      "--concurrency",
      "1",
      "--rate",
      "10000",
      "--json",
      join(dir, "a.json"),
    ]);
    const a = JSON.parse(readFileSync(join(dir, "a.json"), "utf8")) as DriftReport;
    expect(first.code).toBe(3);
    expect(a.summary.byStatus["invalid-attestation"]).toBe(1);
    expect(a.agents.find((r) => r.status === "invalid-attestation")!.reason).toMatch(/^key-not-found|^kid-not-accepted/);

    env.service.injectFault({ kind: "status-500", times: 4 }); // one request and its three retries
    env.service.injectFault({ kind: "rate-limit", times: 1 });
    const second = await cli([
      ...endpoints(env),
      "--agents",
      agents.join(","),
      "--concurrency",
      "1",
      "--rate",
      "10000",
      "--json",
      join(dir, "b.json"),
    ]);
    env.service.clearFaults();
    const b = JSON.parse(readFileSync(join(dir, "b.json"), "utf8")) as DriftReport;
    // At least one of 4 agents unverified is more than the default 1 %: the run fails loud (exit 4).
    expect(second.code).toBe(4);
    expect(b.summary.agents).toBe(4);
    expect(b.summary.byStatus.error + b.summary.byStatus["in-sync"]).toBe(4);
    expect(b.summary.byStatus.error).toBeGreaterThanOrEqual(1);
    expect(b.summary.unverified).toMatchObject({
      count: b.summary.byStatus.error,
      limit: { kind: "percent", value: 1 },
      allowed: 0,
      exceeded: true,
    });
    expect(b.agents.find((r) => r.status === "error")!.reason).toContain("service request failed");
    expect(second.stdout).toContain(`FAILED: could not verify: ${b.summary.byStatus.error} of 4 agents unverified`);
  });

  it("exits 4, not 0, when the service answers 500 for every agent; --max-errors can allow it", async () => {
    const agents = env.served.agents
      .slice(0, 4)
      .map((a) => `${a.chain}:${a.agentId}:${a.registry}`)
      .join(",");
    const dir = mkdtempSync(join(tmpdir(), "drift-"));
    env.service.injectFault({ kind: "status-500", path: "/api/trust-check" }); // every request, until cleared
    try {
      const failed = await cli([...endpoints(env), "--agents", agents, "--rate", "10000", "--json", join(dir, "500.json")]);
      expect(failed.code).toBe(4);
      expect(failed.stdout.trimEnd().split("\n").at(-1)).toBe(
        "FAILED: could not verify: 4 of 4 agents unverified, more than --max-errors 1% allows (exit 4)",
      );
      const report = JSON.parse(readFileSync(join(dir, "500.json"), "utf8")) as DriftReport;
      expect(report.summary.byStatus.error).toBe(4);
      expect(report.summary.unverified).toEqual({
        count: 4,
        fraction: 1,
        limit: { kind: "percent", value: 1 },
        allowed: 0,
        exceeded: true,
      });
      for (const row of report.agents) expect(row.reason).toMatch(/^service request failed: .*500/);

      const allowed = await cli([...endpoints(env), "--agents", agents, "--rate", "10000", "--max-errors", "4", "--quiet"]);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toContain("unverified:       4 of 4 agents (100%): error 4, missing-attestation 0; limit --max-errors 4\n");
    } finally {
      env.service.clearFaults();
    }
  });

  describe("against a service that answers something else", () => {
    let server: ScriptedServer | undefined;
    afterAll(async () => server?.close());

    it("exits 4 when every trust-check answers an HTML page with 200", async () => {
      server = await startScriptedServer(() => ({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        text: "<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
      }));
      const agents = env.served.agents
        .slice(0, 3)
        .map((a) => `${a.chain}:${a.agentId}:${a.registry}`)
        .join(",");
      const dir = mkdtempSync(join(tmpdir(), "drift-"));
      const { code, stdout } = await cli([
        "--rpc",
        env.rpcUrl,
        "--oracle",
        env.oracle,
        "--api",
        server.url,
        "--jwks",
        env.jwksUrl,
        "--issuer",
        env.issuer,
        "--agents",
        agents,
        "--rate",
        "10000",
        "--json",
        join(dir, "html.json"),
      ]);
      expect(code).toBe(4);
      expect(stdout).toContain("FAILED: could not verify: 3 of 3 agents unverified");
      expect(server.requests.length).toBeGreaterThanOrEqual(3);
      expect(server.requests.every((r) => r.url.startsWith("/api/trust-check?"))).toBe(true);
      const report = JSON.parse(readFileSync(join(dir, "html.json"), "utf8")) as DriftReport;
      expect(report.summary.unverified).toMatchObject({ count: 3, exceeded: true });
      for (const row of report.agents) {
        expect(row.status).toBe("error");
        expect(row.reason).toMatch(/^service request failed: .*(JSON|HTML)/i);
      }
    });

    it("exits 4 when an --all scan finds no agent at all (an empty listing, the oracle's events not replayed)", async () => {
      await server?.close();
      server = await startScriptedServer(() => ({ json: { agents: [], nextCursor: null } }));
      const { code, stdout } = await cli([
        "--rpc",
        env.rpcUrl,
        "--oracle",
        env.oracle,
        "--api",
        server.url,
        "--jwks",
        env.jwksUrl,
        "--all",
        "--rate",
        "10000",
        "--events-from",
        "off",
      ]);
      expect(stdout).toMatch(/note: {13}NOT LOOKED FOR: on-chain records the service's listing lacks .* because --events-from off/);
      expect(code).toBe(4);
      expect(stdout).toContain("0 agents checked");
      expect(stdout.trimEnd().split("\n").at(-1)).toBe("FAILED: could not verify: no agent was scanned (exit 4)");
      expect(server.requests.map((r) => r.url.split("?")[0])).toEqual(["/api/agents"]);
    });

    it("an empty listing does not hide the oracle's records: by default they are found in its events, each a row", async () => {
      await server?.close();
      server = await startScriptedServer(() => ({ json: { agents: [], nextCursor: null } }));
      const { code, stdout } = await cli([
        "--rpc",
        env.rpcUrl,
        "--oracle",
        env.oracle,
        "--api",
        server.url,
        "--jwks",
        env.jwksUrl,
        "--all",
        "--rate",
        "10000",
      ]);
      expect(code).toBe(4);
      expect(stdout).toMatch(/the listing lacks [1-9]\d* agents the chain holds records for/);
      expect(stdout).toMatch(/^[1-9]\d* agents checked/m); // the oracle's records, each a row, not "0 agents checked"
    });
  });

  it("--gate evaluates a deployed TrustGated's own policy (its sybil limit refuses what a threshold admits)", async () => {
    const artifact = JSON.parse(
      readFileSync(resolve(__dirname, "../../artifacts/contracts/fixtures/GatedAction.sol/GatedAction.json"), "utf8"),
    ) as { abi: Abi; bytecode: Hex };
    const chain = {
      id: 8453,
      name: "local",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [env.rpcUrl] } },
    } as const;
    const account = env.simulation.publisher as Address;
    const wallet = createWalletClient({ account: account!, chain, transport: http(env.rpcUrl) });
    const reader = createPublicClient({ chain, transport: http(env.rpcUrl) });
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [
        {
          oracle: env.oracle,
          identityRegistry: env.identityRegistry,
          agentChainId: 8453n,
          agentRegistry: "erc8004",
          policy: { minScore: 30, maxSybilSeverity: 0, maxAge: 7 * 86_400, requireController: false },
        },
        account!,
      ],
    });
    const gate = (await reader.waitForTransactionReceipt({ hash })).contractAddress!;
    const target = env.served.agents.find((a) => a.score >= 60 && a.sybilSeverity !== "none" && a.chain === "base")!;
    const spec = `${target.chain}:${target.agentId}:${target.registry}`;
    const dir = mkdtempSync(join(tmpdir(), "drift-"));
    await cli([...endpoints(env), "--agents", spec, "--gate", gate, "--rate", "10000", "--json", join(dir, "g.json")]);
    const report = JSON.parse(readFileSync(join(dir, "g.json"), "utf8")) as DriftReport;
    expect(report.decisionRule).toBe(`gate ${getAddress(gate)} (minScore 30, maxSybilSeverity 0, maxAge 604800s)`);
    expect(report.agents[0]!.decision).toEqual({ onchain: false, attested: false, flipped: false });
    await cli([...endpoints(env), "--agents", spec, "--threshold", "30", "--rate", "10000", "--json", join(dir, "t.json")]);
    const byThreshold = JSON.parse(readFileSync(join(dir, "t.json"), "utf8")) as DriftReport;
    expect(byThreshold.agents[0]!.decision).toEqual({ onchain: true, attested: true, flipped: false });
  });

  it("reads a listing's null sybil severity as none: the same triage and rows as a listing that says none", async () => {
    const api = createTrustApiClient({ baseUrl: env.apiUrl, rateLimit: false });
    const listing = (none: string | null) =>
      ({
        ...api,
        async *iterateAgents() {
          for (const agent of env.served.agents) {
            yield {
              agentId: agent.agentId,
              chain: agent.chain,
              registry: agent.registry,
              score: agent.score,
              tier: agent.tier,
              sybilSeverity: agent.sybilSeverity === "none" ? none : agent.sybilSeverity,
              updatedAt: agent.updatedAt.toISOString(),
            };
          }
        },
      }) as typeof api;
    const scan = (none: string | null) =>
      scanAllAgents({
        chain: createPublicClient({ transport: http(env.rpcUrl) }),
        oracle: env.oracle,
        api: listing(none),
        attestations: { issuer: env.issuer, jwks: createJwksResolver({ url: env.jwksUrl }) },
        rule: { kind: "threshold", threshold: 51 },
        maxAgeSeconds: 10 * 86_400,
        encoding: DEFAULT_TRUST_ENCODING,
        concurrency: 8,
        // A small audit (sized for a listing lying about half the agents), so that most rows keep the listing's data.
        audit: { confidence: 0.5, lieRate: 0.5 },
        seed: 3,
      });
    const withNone = await scan("none");
    const withNull = await scan(null);
    expect(env.served.agents.filter((a) => a.sybilSeverity === "none").length).toBeGreaterThan(100);
    expect(withNull.triage.reasons["incomplete-listing"]).toBeUndefined();
    expect(withNull.triage.reasons).toEqual(withNone.triage.reasons);
    expect(withNull.triage.fetchesSaved).toBe(withNone.triage.fetchesSaved);
    const statuses = (rows: typeof withNone.rows) =>
      rows.map((r) => `${r.chain}:${r.agentId}:${r.registry} ${r.status} ${r.attested?.sybilSeverity}`).sort();
    expect(statuses(withNull.rows)).toEqual(statuses(withNone.rows));
    const listedNone = withNull.rows.filter((r) => r.attested?.kid === null && r.attested.sybilSeverity === "none");
    expect(listedNone.length).toBeGreaterThan(100);
    for (const row of listedNone) expect(row.status).toBe("in-sync");
  });

  it("catches a listing that lies: its scores match the chain, the signed attestations do not", async () => {
    const api = createTrustApiClient({ baseUrl: env.apiUrl, rateLimit: false });
    const moved = env.served.advance({ seed: 99, changedFraction: 0.2, newAgents: 0, at: new Date() });
    env.service.setPopulation(moved);
    try {
      // The listing still says what the chain says (the old data); trust-check serves the moved data.
      const lyingApi = {
        ...api,
        async *iterateAgents() {
          for (const agent of env.served.agents) {
            yield {
              agentId: agent.agentId,
              chain: agent.chain,
              registry: agent.registry,
              score: agent.score,
              tier: agent.tier,
              sybilSeverity: agent.sybilSeverity,
              updatedAt: agent.updatedAt.toISOString(),
            };
          }
        },
      } as typeof api;
      const result = await scanAllAgents({
        chain: createPublicClient({ transport: http(env.rpcUrl) }),
        oracle: env.oracle,
        api: lyingApi,
        attestations: { issuer: env.issuer, jwks: createJwksResolver({ url: env.jwksUrl }) },
        rule: { kind: "threshold", threshold: 51 },
        maxAgeSeconds: 10 * 86_400,
        encoding: DEFAULT_TRUST_ENCODING,
        concurrency: 8,
        // Sized to catch, nearly surely, a listing that lies about a fifth of the agents.
        audit: { confidence: 0.999, lieRate: 0.2 },
        seed: 3,
      });
      const drifted = result.rows.filter((r) => r.status === "drifted");
      expect(result.triage.listingContradictions).toBeGreaterThan(0);
      expect(drifted.length).toBeGreaterThanOrEqual(result.triage.listingContradictions);
      expect(result.triage.reasons.audit).toBeGreaterThan(0);
      expect(drifted.every((r) => r.attested?.kid === "rnwy-trust-v2")).toBe(true);
    } finally {
      env.service.setPopulation(env.served);
    }
  });
});

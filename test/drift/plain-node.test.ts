// `trustgate drift --rpc <plain hardhat node>` end to end: a real `hardhat node` subprocess on loopback, which
// has no Multicall3 at its canonical address; the reference oracle deployed there by an ordinary deployment
// transaction and published to; the kit's local signing service; the real command line. The drift job must read
// the oracle without Multicall3 (deployless), say so exactly once, and deploy nothing at Multicall3's address.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses";
import type { DriftReport } from "../../src/drift/types";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";
import { publishTrustRecords } from "../../src/harness/devnet/publish-records";
import { agentKey, createPopulation, type Population, type RunningTrustService, startTrustService } from "../../src/harness/service/index";

const ROOT = resolve(__dirname, "../..");
const AGENTS = 120; // more than one deployless chunk (95 records)
const NOTE = `Multicall3 not deployed at ${MULTICALL3_ADDRESS} on chain 31337: reads used deployless Multicall3`;

/** A free TCP port on 127.0.0.1 (bound, then released for the node to take). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

/** JSON-RPC request to the node; `undefined` while it does not answer yet. */
async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await response.json()) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}

/** Runs the real command line in process and captures its streams (as test/drift/drift-e2e.test.ts does). */
async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["drift", ...argv], {
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
    env: { CI: "true" },
    isTTY: false,
  });
  return { code, stdout, stderr };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

let node: ChildProcess | undefined;
let nodeOutput = "";
let rpcUrl: string;
let chain: PublicClient;
let oracle: Address;
let publisher: Address;
let population: Population;
let service: RunningTrustService | undefined;
/** `chain:id:registry` of every agent asked about; the last one is not published on-chain. */
let specs: string[];

beforeAll(async () => {
  const port = await freePort();
  rpcUrl = `http://127.0.0.1:${port}`;
  // A plain local node: without BASE_RPC_URL, hardhat.config.ts does not fork Base.
  const env = { ...process.env };
  delete env.BASE_RPC_URL;
  delete env.BASE_FORK_BLOCK;
  node = spawn(process.execPath, [require.resolve("hardhat/internal/cli/cli"), "node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Keep reading its (verbose) output so that it never blocks on a full pipe; keep the tail for diagnostics.
  const keep = (chunk: Buffer) => (nodeOutput = (nodeOutput + chunk.toString()).slice(-4000));
  node.stdout!.on("data", keep);
  node.stderr!.on("data", keep);
  while ((await rpc(rpcUrl, "eth_chainId")) !== "0x7a69") {
    if (node.exitCode !== null) throw new Error(`hardhat node exited with ${node.exitCode}:\n${nodeOutput}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  const localChain = defineChain({
    id: 31337,
    name: "hardhat node",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  chain = createPublicClient({ chain: localChain, transport: http(rpcUrl) }) as PublicClient;
  expect(await chain.getCode({ address: MULTICALL3_ADDRESS })).toBeUndefined();
  publisher = getAddress(((await rpc(rpcUrl, "eth_accounts")) as string[])[0]!);

  // The reference oracle, deployed by an ordinary deployment transaction from its compiled artifact.
  const artifact = JSON.parse(
    readFileSync(resolve(ROOT, "artifacts/contracts/oracle/TrustScoreOracle.sol/TrustScoreOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const wallet = createWalletClient({ account: publisher, chain: localChain, transport: http(rpcUrl) });
  const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [publisher] });
  oracle = getAddress((await chain.waitForTransactionReceipt({ hash })).contractAddress!);

  // The service's population, scored an hour before the node's clock, published on-chain but for the last agent.
  const latest = await chain.getBlock();
  population = createPopulation({
    seed: 11,
    size: AGENTS,
    chains: ["base", "ethereum"],
    registries: ["erc8004", "olas"],
    at: new Date((Number(latest.timestamp) - 3600) * 1000),
  });
  service = await startTrustService({ population, rateLimit: false });
  await publishTrustRecords(chain, { oracle, publisher, records: snapshotRecords(population.agents.slice(0, -1)) });
  specs = population.agents.map((a) => `${a.chain}:${a.agentId}:${a.registry}`);
});

afterAll(async () => {
  await service?.close();
  if (node && node.exitCode === null && node.signalCode === null) {
    const exited = new Promise((r) => node!.once("exit", r));
    node.kill("SIGTERM");
    await exited;
  }
});

describe("trustgate drift against a plain hardhat node (no Multicall3)", () => {
  it("reads every record through deployless Multicall3, reports every agent, notes the mode once, exits 0, deploys nothing", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "drift-plain-")), "report.json");
    const { code, stdout, stderr } = await cli([
      "--rpc",
      rpcUrl,
      "--oracle",
      oracle,
      "--api",
      service!.url,
      "--agents",
      specs.join(","),
      "--rate",
      "10000",
      "--json",
      file,
    ]);
    // Before the fetches, the projected cost (at the rate the local service announces); after, where the report went.
    expect(stderr).toMatch(/^trustgate: 120 signed attestations to fetch at \d+ requests\/min: about \d+s\n/);
    expect(stderr.endsWith(`trustgate: JSON report written to ${file}\n`)).toBe(true);
    expect(stderr.trim().split("\n")).toHaveLength(2);
    expect(code).toBe(0); // README: 0 = no decision flip and no invalid attestation
    const report = JSON.parse(readFileSync(file, "utf8")) as DriftReport;

    expect(report.source).toMatchObject({ chainId: 31337, oracle, readerMode: "deployless-multicall3" });
    expect(report.summary.agents).toBe(AGENTS);
    expect(report.summary.byStatus).toMatchObject({ "in-sync": AGENTS - 1, "missing-onchain": 1, error: 0 });
    const rows = new Map(report.agents.map((row) => [agentKey(row), row]));
    population.agents.forEach((agent, i) => {
      const row = rows.get(agentKey(agent));
      expect(row, agentKey(agent)).toBeDefined();
      if (i === AGENTS - 1) {
        expect(row!.status).toBe("missing-onchain");
        expect(row!.onchain).toBeNull();
      } else {
        expect(row!.status, `${agentKey(agent)}: ${row!.reason}`).toBe("in-sync");
        expect(row!.onchain).toMatchObject({ score: agent.score, tier: agent.tier, sybilSeverity: agent.sybilSeverity });
      }
    });

    // The mode is said once in the JSON and once in the summary for people.
    expect(report.notes).toHaveLength(1);
    expect(report.notes![0]).toContain(NOTE);
    expect(occurrences(stdout + stderr, "Multicall3 not deployed")).toBe(1);
    expect(stdout).toContain(`note:             ${NOTE}`);
    // Nothing was deployed at Multicall3's address.
    expect(await rpc(rpcUrl, "eth_getCode", [MULTICALL3_ADDRESS, "latest"])).toBe("0x");
  });

  it("reads the values themselves: a record moved across the threshold on-chain flips the decision, exit 3", async () => {
    const agent = population.agents[0]!;
    const [record] = snapshotRecords([agent]);
    const moved = agent.score >= 51 ? { score: 30, tier: 1 } : { score: 80, tier: 3 };
    await publishTrustRecords(chain, {
      oracle,
      publisher,
      records: [{ ...record!, ...moved, updatedAt: agent.updatedAt.getTime() / 1000 + 60 }],
    });
    const file = join(mkdtempSync(join(tmpdir(), "drift-plain-")), "report.json");
    const { code, stdout, stderr } = await cli([
      "--rpc",
      rpcUrl,
      "--oracle",
      oracle,
      "--api",
      service!.url,
      "--agents",
      specs[0]!,
      "--rate",
      "10000",
      "--json",
      file,
    ]);
    const report = JSON.parse(readFileSync(file, "utf8")) as DriftReport;
    expect(code).toBe(3);
    expect(report.agents[0]).toMatchObject({ status: "drifted", onchain: { score: moved.score }, attested: { score: agent.score } });
    expect(report.agents[0]!.decision.flipped).toBe(true);
    expect(report.notes).toEqual([expect.stringContaining(NOTE)]);
    expect(occurrences(stdout + stderr, "Multicall3 not deployed")).toBe(1);
    expect(await rpc(rpcUrl, "eth_getCode", [MULTICALL3_ADDRESS, "latest"])).toBe("0x");
  });
});

// refreshAttestedOracle's TSDoc @example, run as written (its imports of the package entries mapped to this
// repository's sources, its inputs from the environment it reads) against the devnet: the embedded local Base chain
// served over HTTP, the local signing service, and a real AttestedTrustOracle over the reference oracle. A drift run
// with --attested-oracle writes the report the example reads; the example pushes what is due; the next drift run
// reports those rows in sync. docs/refresh.md's library block is the same code.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main";
import type { DriftReport } from "../../src/drift/types";
import type { EmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { capturedIo } from "../support/captured-io";
import { startRefreshDevnet } from "../support/refresh-devnet";
import { docBlocks } from "../support/doc-blocks";
import { packageEntrySources } from "../support/snippet-typecheck";
import { runtimeNameExamples } from "../support/tsdoc-examples";

/** A throwaway key for the sender (Hardhat's well-known account 2), funded on the local chain below. */
const SENDER_KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const sender = privateKeyToAccount(SENDER_KEY);

/** The @example of refreshAttestedOracle, as its TSDoc writes it. */
function example(): string {
  const entry = runtimeNameExamples("src/refresh/entry.ts").find((name) => name.name === "refreshAttestedOracle");
  expect(entry?.examples).toHaveLength(1);
  return entry!.examples[0]!;
}

/** The example with `from "trustgate…"` pointing at the sources each package entry is built from. */
function onSources(code: string): string {
  let mapped = code;
  for (const [specifier, file] of packageEntrySources()) mapped = mapped.replaceAll(`from "${specifier}"`, `from ${JSON.stringify(file)}`);
  expect(mapped).not.toMatch(/from "trustgate/);
  return mapped;
}

let env: EmbeddedDriftEnvironment;
let attested: Address;
const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-example-"));

async function drift(file: string): Promise<DriftReport> {
  const captured = capturedIo();
  const code = await main(
    [
      "drift",
      ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--attested-oracle", attested],
      ...["--all", "--threshold", "96", "--rate", "100000", "--max-errors", "100%", "--json", file],
    ],
    captured.io,
  );
  expect(code, captured.stderr()).toBeLessThanOrEqual(4);
  return JSON.parse(readFileSync(file, "utf8")) as DriftReport;
}

beforeAll(async () => {
  const devnet = await startRefreshDevnet({ size: 12, chains: ["base"], staleChain: "base" });
  env = devnet.env;
  attested = await devnet.deployAttestedOracle();
  await devnet.installServiceKey(attested);
  await devnet.fund(sender.address);
}, 180_000);

afterAll(async () => env?.close());

describe("refreshAttestedOracle's @example", () => {
  it("is docs/refresh.md's library block", () => {
    const blocks = docBlocks("docs/refresh.md").filter((block) => block.lang === "ts");
    expect(blocks.map((block) => block.code.trim())).toEqual([example().trim()]);
  });

  it("run as written against the devnet, pushes every refreshable row of the drift report, and the next drift run finds them in sync", async () => {
    const before = await drift(join(dir, "before.json"));
    const refreshable = before.agents.filter((row) => row.refresh?.possible === true && row.status !== "in-sync");
    expect(refreshable.length).toBeGreaterThanOrEqual(3);

    const program = join(dir, "keeper.ts");
    writeFileSync(program, onSources(example()));
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    vi.stubEnv("DRIFT_REPORT", join(dir, "before.json"));
    vi.stubEnv("TRUSTGATE_API_URL", env.apiUrl);
    vi.stubEnv("BASE_RPC_URL", env.rpcUrl);
    vi.stubEnv("DEPLOYER_PRIVATE_KEY", SENDER_KEY);
    vi.stubEnv("ATTESTED_ORACLE", attested);
    try {
      await import(program);
    } finally {
      vi.unstubAllEnvs();
      log.mockRestore();
    }
    const due = refreshable.length;
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^${due} due: ${due} stored, 0 refused, in [1-9]\\d* transactions$`))]);

    const after = await drift(join(dir, "after.json"));
    for (const row of refreshable) {
      const now = after.agents.find((r) => r.chain === row.chain && r.agentId === row.agentId && r.registry === row.registry)!;
      expect([row.agentId, now.status]).toEqual([row.agentId, "in-sync"]);
    }
  }, 300_000);
});

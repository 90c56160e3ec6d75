// The runbook of docs/security.md, "If a signing key leaks", as an operator rehearses it on the devnet: every shell
// block of that section that the page marks as run here is run with bash, word for word, in a checkout-like directory
// of its own against a fresh Hardhat node over HTTP, with no deployer key (the node's unlocked account is the admin).
// The deployment and the service's current key first; a forged record passes a gate; step 1 installs the next kid and
// revokes the leaked one; the gate no longer passes on the forged record; step 3 lists the records the leaked kid
// stored, by agent name and as JSON; step 4, `trustgate refresh` over that listing, pushes the service's honest,
// older-scored attestation under the next kid (a local signing service on loopback serves it), which then decides the
// gate, and step 3 lists the record as replaced. The page's Base block must be the same commands with the network, the
// JWKS, the service and the confirmation of a mainnet. `npx trustgate` runs this repository's command line from its
// sources, as the nightly recipe's test runs it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DeploymentsFile, KeyRecordsJson } from "../../src/deploy/index.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { createPopulation } from "../../src/harness/service/population.js";
import { type RunningTrustService, startTrustService } from "../../src/harness/service/index.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { type AttestedOracleClients, submitTrustAttestation } from "../../src/oracle/attested-oracle.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { buildTrustCheckResponse, jwksOf } from "../support/attestations.js";
import { tempDeploymentsDir } from "./support.js";

const run = promisify(execFile);
const LEAKED = "rnwy-trust-v2";
const NEXT = "rnwy-trust-v3";
const BASE = 8453n;
/** This repository's command line from its sources, for `npx trustgate` (as test/docs/nightly-recipe.test.ts runs it). */
const CLI = `${join(process.cwd(), "node_modules/.bin/tsx")} --conditions=trustgate-source ${join(process.cwd(), "src/cli/bin.ts")}`;
/** A population whose agent 1 (base, erc8004) the service scores 47, sybil severity none: under the gate's 51. */
const HONEST = { seed: 14, score: 47 };
const RUN_HERE = "<!-- doc-test: skip: run by test/deploy/key-leak-runbook.test.ts against a fresh devnet -->";

/** A shell block of the section, with the marker on the line before it. */
interface RunbookBlock {
  readonly marker: string;
  readonly commands: string[];
}

/** The shell blocks of the security manual's section "If a signing key leaks" (docs/security.md), in order. */
function runbookBlocks(): RunbookBlock[] {
  const page = readFileSync(join(process.cwd(), "docs", "security.md"), "utf8");
  const start = page.indexOf("## If a signing key leaks");
  const next = page.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(0);
  const section = page.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/([^\n]*)\n```sh\n([\s\S]*?)```/g)].map((match) => ({
    marker: match[1]!.trim(),
    commands: match[2]!
      .trim()
      .split("\n")
      .map((line) => line.trim()),
  }));
}

function artifact(path: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(join(process.cwd(), "artifacts", "contracts", path), "utf8")) as { abi: Abi; bytecode: Hex };
}

/**
 * A directory that works as a checkout for `npm run deploy` and `npm run keys` (the package, its scripts, sources,
 * configuration, artifacts and dependencies linked from this one) and keeps what they write (`deployments/`, the
 * listing) to itself.
 */
function operatorCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-runbook-"));
  for (const entry of ["package.json", "tsconfig.json", "scripts", "src", "deploy", "artifacts", "node_modules"]) {
    symlinkSync(join(process.cwd(), entry), join(dir, entry));
  }
  return dir;
}

let chain: LocalChain & { rpcUrl: string };
let clients: AttestedOracleClients;
let leaked: AttestationSigningKey;
let next: AttestationSigningKey;
let service: RunningTrustService | undefined;

beforeAll(async () => {
  chain = (await startLocalChain({ chainId: 31337, http: true })) as LocalChain & { rpcUrl: string };
  [leaked, next] = await Promise.all([generateSigningKey(LEAKED), generateSigningKey(NEXT)]);
  const transport = http(chain.rpcUrl);
  const [admin] = (await chain.provider.request({ method: "eth_accounts" })) as [Address];
  clients = {
    wallet: createWalletClient({ account: admin, transport, chain: null as never }),
    public: createPublicClient({ transport }) as PublicClient,
  };
});
afterAll(async () => {
  await service?.close();
  await chain?.close();
});

/** The gate's refusal for agent 1, or "passes". */
async function gateAnswer(gate: Address, gateAbi: Abi): Promise<string> {
  try {
    await clients.public.simulateContract({
      address: gate,
      abi: gateAbi,
      functionName: "act",
      args: [1n],
      account: clients.wallet.account,
    });
    return "passes";
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    if (reverted instanceof ContractFunctionRevertedError) return `${reverted.data?.errorName}(${(reverted.data?.args ?? []).join(", ")})`;
    throw error;
  }
}

describe("docs/security.md: If a signing key leaks", () => {
  test("on a fresh devnet, the runbook's commands as written take the forged record back, list it, and the next kid's honest attestation decides the gate", async () => {
    const blocks = runbookBlocks();
    const runnable = blocks.filter((block) => block.marker === RUN_HERE).map((block) => block.commands);
    expect(runnable).toHaveLength(4);
    const [setup, revokeStep, recordsStep, restoreStep] = runnable as [string[], string[], string[], string[]];
    expect(setup.join("\n")).toContain("npm run deploy -- --network localhost");
    expect(revokeStep.join("\n")).toContain("--revoke rnwy-trust-v2");
    expect(recordsStep.join("\n")).toContain("--records rnwy-trust-v2");
    expect(restoreStep).toEqual([
      expect.stringMatching(/^npx trustgate refresh --watch leaked-records\.json .*--accept-kid rnwy-trust-v3/),
    ]);
    for (const command of [...setup, ...revokeStep, ...recordsStep]) expect(command).toContain("--network localhost");

    // The Base form: the same commands, with Base's network, the service's JWKS and the mainnet confirmation.
    const others = blocks.filter((block) => block.marker !== RUN_HERE);
    expect(others).toHaveLength(1);
    expect(
      others[0]!.commands.map((command) =>
        command
          .replace("--network base", "--network localhost")
          .replace("https://rnwy.com/.well-known/jwks.json", '"$JWKS"')
          .replace('--rpc "$BASE_RPC_URL"', '--rpc "$LOCALHOST_RPC_URL"')
          .replace("--api https://rnwy.com", '--api "$TRUSTGATE_API_URL"')
          .replace(" --confirm-mainnet", ""),
      ),
    ).toEqual([...revokeStep, ...recordsStep, ...restoreStep]);
    expect(others[0]!.commands[0]).toContain("--confirm-mainnet");
    expect(others[0]!.commands[2]).toContain("--confirm-mainnet");

    const checkout = operatorCheckout();
    const jwks = join(checkout, "service-jwks.json");
    writeFileSync(jwks, JSON.stringify(jwksOf(leaked)));
    const env: Record<string, string | undefined> = {
      ...process.env,
      HOME: tempDeploymentsDir(),
      LOCALHOST_RPC_URL: chain.rpcUrl,
      JWKS: jwks,
    };
    for (const name of ["DEPLOYER_PRIVATE_KEY", "TRUSTGATE_RPC_URL", "TRUSTGATE_DEBUG", "XDG_CONFIG_HOME"]) delete env[name];
    const shell = (commands: string[]) => run("bash", ["-e", "-c", commands.join("\n")], { env, cwd: checkout });

    // The rehearsal's setup, as printed: the deployment, then the service's current key.
    const deployed = await shell(setup);
    expect(deployed.stdout).toContain("Deployed 5 contract(s)");
    expect(deployed.stdout).toContain(`+ set signing key "${LEAKED}"`);
    const record = JSON.parse(readFileSync(join(checkout, "deployments", "31337.json"), "utf8")) as DeploymentsFile;
    const oracle = getAddress(record.contracts.AttestedTrustOracle!.address);
    expect(record.contracts.TrustAdmissionHook!.constructorArgs[0]).toMatchObject({ oracle });

    // A gate over the attested oracle, as the deployment's gates read it.
    const gateArtifact = artifact("fixtures/GatedAction.sol/GatedAction.json");
    const gateHash = await clients.wallet.deployContract({
      abi: gateArtifact.abi,
      bytecode: gateArtifact.bytecode,
      chain: null,
      args: [
        {
          oracle,
          identityRegistry: "0x0000000000000000000000000000000000000000",
          agentChainId: BASE,
          agentRegistry: "erc8004",
          policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false },
        },
        clients.wallet.account.address,
      ],
    });
    const gate = getAddress((await clients.public.waitForTransactionReceipt({ hash: gateHash })).contractAddress!);

    // The forger holds the leaked key: agent 1, whose real score is 40, gets 95, dated now.
    const now = Number((await clients.public.getBlock()).timestamp) * 1000;
    const forged = await buildTrustCheckResponse(leaked, {
      agent: { agentId: 1, score: 95, tier: "established", sybilSeverity: null },
      issuedAt: new Date(now),
      verifiedAt: new Date(now),
    });
    await submitTrustAttestation(clients, oracle, forged);
    expect(await gateAnswer(gate, gateArtifact.abi)).toBe("passes");

    // The service announces the leak and publishes its next kid. Step 1, as printed.
    writeFileSync(jwks, JSON.stringify(jwksOf(next, leaked)));
    const step1 = await shell(revokeStep);
    expect(step1.stdout).toContain(`+ set signing key "${NEXT}"`);
    expect(step1.stdout).toContain(`- revoke signing key "${LEAKED}"`);
    const [, , revoked] = await clients.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "signingKey",
      args: [LEAKED],
    });
    expect(revoked).toBe(true);

    // Step 2: the gate no longer passes on the forged record (the upstream, the devnet's reference oracle, has none).
    expect(await gateAnswer(gate, gateArtifact.abi)).toBe("TrustRecordMissing(1, 8453, erc8004)");

    // Step 3, as printed: the leaked kid's records, still current, and the kid revoked; the same as JSON.
    const step3 = await shell(recordsStep);
    expect(step3.stdout).toMatch(/: 1, of which 1 still current; the key id is revoked/);
    expect(step3.stdout).toMatch(/\n {2}base:1:erc8004 {2}current /);
    const listing = JSON.parse(readFileSync(join(checkout, "leaked-records.json"), "utf8")) as KeyRecordsJson;
    expect(listing).toMatchObject({ kid: LEAKED, oracle, chainId: 31337, revoked: true, current: 1 });
    expect(listing.records).toEqual([
      expect.objectContaining({ agent: "base:1:erc8004", agentId: "1", chainId: 8453, registry: "erc8004", current: true }),
    ]);

    // Step 4, as printed: the service now signs under the next kid (its JWKS holds that key alone), its score for agent
    // 1 computed two hours before the forgery; the sender is a funded key of its own, with no role on the oracle.
    service = await startTrustService({
      population: createPopulation({
        seed: HONEST.seed,
        size: 3,
        chains: ["base"],
        registries: ["erc8004"],
        at: new Date(now - 2 * 3_600_000),
      }),
      signingKeys: [next],
    });
    const sender = generatePrivateKey();
    await clients.public.waitForTransactionReceipt({
      hash: await clients.wallet.sendTransaction({ to: privateKeyToAccount(sender).address, value: 10n ** 18n, chain: null }),
    });
    const step4 = await run("bash", ["-e", "-c", restoreStep.join("\n").replaceAll("npx trustgate ", `${CLI} `)], {
      env: { ...env, TRUSTGATE_API_URL: service.url, DEPLOYER_PRIVATE_KEY: sender },
      cwd: checkout,
    });
    expect(step4.stdout).not.toContain(sender.slice(2));
    const restored = JSON.parse(readFileSync(join(checkout, "restored.json"), "utf8")) as {
      exitCode: number;
      plan: { due: { agent: string; reasons: string[] }[] };
      sent: { totals: { stored: number; transactions: number }; attestations: { agent: string; outcome: string; kid: string }[] };
    };
    expect(restored.exitCode).toBe(0);
    expect(restored.plan.due).toEqual([expect.objectContaining({ agent: "base:1:erc8004" })]);
    expect(restored.sent.attestations).toEqual([expect.objectContaining({ agent: "base:1:erc8004", outcome: "stored", kid: NEXT })]);
    expect(restored.sent.totals).toMatchObject({ stored: 1, transactions: 1 });
    expect(await gateAnswer(gate, gateArtifact.abi)).toBe(`TrustScoreTooLow(1, ${HONEST.score}, 51)`);
    const listed = await shell(recordsStep);
    expect(listed.stdout).toMatch(/\n {2}base:1:erc8004 {2}replaced/);
    expect((JSON.parse(readFileSync(join(checkout, "leaked-records.json"), "utf8")) as KeyRecordsJson).records[0]!.current).toBe(false);

    // With --json -, stdout is the JSON alone and the listing's lines go to stderr.
    const piped = await shell(["npm run --silent keys -- --network localhost --records rnwy-trust-v2 --json -"]);
    expect((JSON.parse(piped.stdout) as KeyRecordsJson).records.map((r) => r.agent)).toEqual(["base:1:erc8004"]);
    expect(piped.stderr).toMatch(/\n {2}base:1:erc8004 {2}replaced/);
  });
});

describe("npm run keys -- --records", () => {
  test("lists and changes nothing: refuses to be combined with a change, a --from-block that is not a block number, and --json without it or to a path that cannot be written, before any request", async () => {
    const cli = (args: string[]) =>
      run(process.execPath, [join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs"), "scripts/keys.ts", ...args], {
        env: { ...process.env, HOME: tempDeploymentsDir() },
      }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    const mixed = await cli(["--rpc-url", chain.rpcUrl, "--records", LEAKED, "--revoke", LEAKED]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--records lists and changes nothing: run it without --revoke");
    const badBlock = await cli(["--rpc-url", chain.rpcUrl, "--records", LEAKED, "--from-block", "latest"]);
    expect(badBlock.code).toBe(2);
    expect(badBlock.stderr).toContain('--from-block must be a block number, not "latest"');
    const jsonAlone = await cli(["--rpc-url", chain.rpcUrl, "--jwks", "jwks.json", "--json", "keys.json"]);
    expect(jsonAlone.code).toBe(2);
    expect(jsonAlone.stderr).toContain("--json goes with --records <kid>");
    const missingDir = join(tempDeploymentsDir(), "absent", "records.json");
    const unwritable = await cli(["--rpc-url", "http://127.0.0.1:9", "--records", LEAKED, "--json", missingDir]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain(`--json ${missingDir}: directory`);
    expect(unwritable.stderr).not.toContain("Cannot reach");
  });
});

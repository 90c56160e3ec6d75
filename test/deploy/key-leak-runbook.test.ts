// The runbook of docs/security.md, "If a signing key leaks", end to end on a Hardhat chain over HTTP: a forged record passes a
// gate; the runbook's own commands (read from that page, run with bash as an operator would) install the next kid
// and revoke the leaked one, then list the records the leaked kid stored; the gate no longer passes on the forged
// record; the service's honest, older-scored attestation under the next kid is stored and decides the gate.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { type AttestedOracleClients, setTrustSigningKeys, submitTrustAttestation } from "../../src/oracle/attested-oracle.js";
import { signingKeyArgsOf } from "../../src/attestation/onchain-keys.js";
import { buildTrustCheckResponse, jwksOf } from "../support/attestations.js";
import { deployAttestedOracle, HARDHAT_KEY_0, tempDeploymentsDir } from "./support.js";

const run = promisify(execFile);
const LEAKED = "rnwy-trust-v2";
const NEXT = "rnwy-trust-v3";
const BASE = 8453n;

/** The shell blocks of the security manual's section "If a signing key leaks" (docs/security.md), in order. */
function runbookCommands(): string[] {
  const page = readFileSync(join(process.cwd(), "docs", "security.md"), "utf8");
  const start = page.indexOf("## If a signing key leaks");
  const next = page.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(0);
  const section = page.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());
}

function artifact(path: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(join(process.cwd(), "artifacts", "contracts", path), "utf8")) as { abi: Abi; bytecode: Hex };
}

let chain: LocalChain & { rpcUrl: string };
let clients: AttestedOracleClients;
let leaked: AttestationSigningKey;
let next: AttestationSigningKey;

beforeAll(async () => {
  chain = (await startLocalChain({ chainId: 31337, http: true })) as LocalChain & { rpcUrl: string };
  [leaked, next] = await Promise.all([generateSigningKey(LEAKED), generateSigningKey(NEXT)]);
  const account = privateKeyToAccount(HARDHAT_KEY_0);
  const transport = http(chain.rpcUrl);
  clients = {
    wallet: createWalletClient({ account, transport, chain: null as never }),
    public: createPublicClient({ transport }) as PublicClient,
  };
});
afterAll(async () => {
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
  test("the runbook's commands take the forged record back, list it, and the next kid's honest attestation decides the gate", async () => {
    const [revokeCommand, recordsCommand, ...rest] = runbookCommands();
    expect(rest).toEqual([]);
    expect(revokeCommand).toContain("--revoke rnwy-trust-v2");
    expect(recordsCommand).toContain("--records rnwy-trust-v2");

    const admin = clients.wallet.account.address;
    const provider = { request: (args: { method: string; params?: unknown }) => clients.public.request(args as never) };
    const fromBlock = await clients.public.getBlockNumber();
    const oracle = await deployAttestedOracle(provider, admin, admin);
    await setTrustSigningKeys(clients, oracle, [signingKeyArgsOf(leaked.publicJwk)]);
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
        admin,
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

    // Step 1, as printed: install the next kid (forced by name) and revoke the leaked one.
    const jwks = join(mkdtempSync(join(tmpdir(), "trustgate-runbook-")), "jwks.json");
    writeFileSync(jwks, JSON.stringify(jwksOf(next)));
    const env = {
      ...process.env,
      HOME: tempDeploymentsDir(),
      DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0,
      RPC_URL: chain.rpcUrl,
      ORACLE: oracle,
      JWKS: jwks,
      FROM_BLOCK: fromBlock.toString(),
    };
    const step1 = await run("bash", ["-c", revokeCommand!], { env, cwd: process.cwd() });
    expect(step1.stdout).toContain(NEXT);
    const [, , revoked] = await clients.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "signingKey",
      args: [LEAKED],
    });
    expect(revoked).toBe(true);

    // Step 2: the gate no longer passes on the forged record (no upstream here: the record is missing).
    expect(await gateAnswer(gate, gateArtifact.abi)).toBe("TrustRecordMissing(1, 8453, erc8004)");

    // Step 3, as printed: the leaked kid's records, still current, and the kid revoked.
    const step3 = await run("bash", ["-c", recordsCommand!], { env, cwd: process.cwd() });
    expect(step3.stdout).toMatch(/: 1, of which 1 still current; the key id is revoked/);
    expect(step3.stdout).toMatch(/agent 1 on chain 8453 \(erc8004\) {2}current/);

    // Step 4: the service's next attestation, under the next kid, scored two hours before the forgery.
    const honest = await buildTrustCheckResponse(next, {
      agent: { agentId: 1, score: 40, tier: "limited", sybilSeverity: null },
      issuedAt: new Date(now - 2 * 3_600_000),
      verifiedAt: new Date(now + 1_000),
    });
    await submitTrustAttestation(clients, oracle, honest);
    expect(await gateAnswer(gate, gateArtifact.abi)).toBe("TrustScoreTooLow(1, 40, 51)");
    const listed = await run("bash", ["-c", recordsCommand!], { env, cwd: process.cwd() });
    expect(listed.stdout).toMatch(/agent 1 on chain 8453 \(erc8004\) {2}replaced/);
  });
});

describe("npm run keys -- --records", () => {
  test("lists and changes nothing: refuses to be combined with a change, and a --from-block that is not a block number", async () => {
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
  });
});

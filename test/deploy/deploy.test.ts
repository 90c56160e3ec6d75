import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  encodeDeployData,
  getAddress,
  type Hex,
  http,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, test } from "vitest";
import { currentGitCommit, type DeploymentsFile, type DeployParameters, deploy, deploymentFingerprint } from "../../src/deploy/index.js";
import { DeploymentError } from "../../src/errors.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { abiOf, HARDHAT_KEY_0, nonceOf, shippedNetwork, tempDeploymentsDir } from "./support.js";

const ORACLE_ABI = abiOf("oracle/TrustScoreOracle.sol", "TrustScoreOracle");
const HOOK_ABI = abiOf("examples/TrustAdmissionHook.sol", "TrustAdmissionHook");
const BOARD_ABI = abiOf("examples/AgentTaskBoard.sol", "AgentTaskBoard");
const REGISTRY_ABI = abiOf("testing/MockIdentityRegistry.sol", "MockIdentityRegistry");
const BOARD_AND_HOOK_ERRORS: Abi = [...BOARD_ABI, ...HOOK_ABI.filter((item) => item.type === "error")];

const chains: LocalChain[] = [];
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.close();
});

async function chainWithId(chainId: number, http = false): Promise<LocalChain> {
  const chain = await startLocalChain({ chainId, http });
  chains.push(chain);
  return chain;
}

function readFile(dir: string, chainId: number): DeploymentsFile {
  return JSON.parse(readFileSync(join(dir, `${chainId}.json`), "utf8")) as DeploymentsFile;
}

async function deployLocal(chain: LocalChain, dir: string, extra: Partial<DeployParameters> = {}) {
  return deploy({
    network: "hardhat",
    config: shippedNetwork("hardhat"),
    provider: chain.provider,
    deploymentsDir: dir,
    gitCommit: "0123456789abcdef0123456789abcdef01234567",
    ...extra,
  });
}

async function revertName(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : `not a revert: ${String(error)}`;
  }
  return undefined;
}

describe("deploy on a local chain", () => {
  test("deploys the reference oracle, a mock identity registry, the hook and the task board; the deployed board gates takeTask through the hook", async () => {
    // Over HTTP, as a real node: the revert data of refused calls reaches viem intact.
    const chain = await chainWithId(31337, true);
    const transport = http(chain.rpcUrl);
    const dir = tempDeploymentsDir();
    const result = await deployLocal(chain, dir, { provider: transport({}) });
    expect(result.actions.map((a) => [a.name, a.status])).toEqual([
      ["TrustScoreOracle", "deployed"],
      ["MockIdentityRegistry", "deployed"],
      ["TrustAdmissionHook", "deployed"],
      ["AgentTaskBoard", "deployed"],
    ]);
    expect(result.transactionsSent).toBe(4);
    const [oracle, registry, hook, board] = result.actions.map((a) => a.address) as [Address, Address, Address, Address];

    const publicClient = createPublicClient({ transport });
    const [client, agentAccount, stranger] = (await chain.provider.request({ method: "eth_accounts" })) as [Address, Address, Address];
    /** Sends a contract call from an unlocked account of the node and waits until it is mined. */
    const send = async (
      account: Address,
      call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[]; value?: bigint },
    ) =>
      publicClient.waitForTransactionReceipt({
        hash: await createWalletClient({ account, transport }).writeContract({ ...call, chain: null }),
      });

    // The deployed gates are wired as configured.
    expect(getAddress((await publicClient.readContract({ address: hook, abi: HOOK_ABI, functionName: "trustOracle" })) as string)).toBe(
      oracle,
    );
    expect(getAddress((await publicClient.readContract({ address: board, abi: BOARD_ABI, functionName: "admissionHook" })) as string)).toBe(
      hook,
    );
    expect(await publicClient.readContract({ address: hook, abi: HOOK_ABI, functionName: "trustPolicy" })).toEqual({
      minScore: 51,
      maxSybilSeverity: 2,
      maxAge: 172800,
      requireController: true,
    });
    expect(await publicClient.readContract({ address: hook, abi: HOOK_ABI, functionName: "agentDomain" })).toEqual([8453n, "erc8004"]);
    expect(
      getAddress((await publicClient.readContract({ address: hook, abi: HOOK_ABI, functionName: "identityRegistry" })) as string),
    ).toBe(registry);
    // agentAccount controls agents 7 and 8 in the mock registry.
    for (const agentId of [7n, 8n]) {
      await send(client, { address: registry, abi: REGISTRY_ABI, functionName: "registerWithId", args: [agentAccount, agentId] });
    }

    const block = await publicClient.getBlock();
    const deadline = block.timestamp + 86_400n;
    await send(client, { address: board, abi: BOARD_ABI, functionName: "postTask", args: [deadline], value: 10n ** 18n });

    // No record for agent 7: the hook's verdict is "record missing", and the board refuses the agent.
    const verdict = (await publicClient.readContract({
      address: hook,
      abi: HOOK_ABI,
      functionName: "trustVerdict",
      args: [7n, agentAccount],
    })) as readonly [boolean, number, unknown];
    expect(verdict[0]).toBe(false);
    expect(verdict[1]).toBe(3); // TrustRefusal.RecordMissing
    const take = () =>
      publicClient.simulateContract({
        account: agentAccount,
        address: board,
        abi: BOARD_AND_HOOK_ERRORS,
        functionName: "takeTask",
        args: [1n, 7n],
      });
    expect(await revertName(take())).toBe("TrustRecordMissing");

    // The deployer is the reference oracle's publisher: publishing a good record admits the agent.
    const now = Number((await publicClient.getBlock()).timestamp);
    await send(client, {
      address: oracle,
      abi: ORACLE_ABI,
      functionName: "publish",
      args: [[{ agentId: 7n, chainId: 8453n, registry: "erc8004", score: 80, tier: 3, sybilSeverity: 0, updatedAt: now }]],
    });
    const admitted = (await publicClient.readContract({
      address: hook,
      abi: HOOK_ABI,
      functionName: "trustVerdict",
      args: [7n, agentAccount],
    })) as readonly [boolean, number, unknown];
    expect(admitted[0]).toBe(true);
    await take();
    await send(agentAccount, { address: board, abi: BOARD_ABI, functionName: "takeTask", args: [1n, 7n] });
    const task = (await publicClient.readContract({ address: board, abi: BOARD_ABI, functionName: "getTask", args: [1n] })) as {
      agentAccount: Address;
      agentId: bigint;
    };
    expect(getAddress(task.agentAccount)).toBe(getAddress(agentAccount));
    expect(task.agentId).toBe(7n);

    // Someone who does not control the trusted agent cannot take, and be paid for, its task.
    await send(client, { address: board, abi: BOARD_ABI, functionName: "postTask", args: [deadline], value: 1n });
    expect(
      await revertName(
        publicClient.simulateContract({
          account: stranger,
          address: board,
          abi: BOARD_AND_HOOK_ERRORS,
          functionName: "takeTask",
          args: [2n, 7n],
        }),
      ),
    ).toBe("NotAgentController");

    // A score below the policy's minScore is refused again, with the hook's error.
    await send(client, {
      address: oracle,
      abi: ORACLE_ABI,
      functionName: "publish",
      args: [[{ agentId: 8n, chainId: 8453n, registry: "erc8004", score: 40, tier: 1, sybilSeverity: 0, updatedAt: now }]],
    });
    expect(
      await revertName(
        publicClient.simulateContract({
          account: agentAccount,
          address: board,
          abi: BOARD_AND_HOOK_ERRORS,
          functionName: "takeTask",
          args: [2n, 8n],
        }),
      ),
    ).toBe("TrustScoreTooLow");
  });

  test("the deployments file records name, address, transaction, constructor arguments, block and git commit", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const result = await deployLocal(chain, dir);
    const file = readFile(dir, 31337);
    expect(file.chainId).toBe(31337);
    expect(file.network).toBe("hardhat");
    expect(Object.keys(file.contracts)).toEqual(["TrustScoreOracle", "MockIdentityRegistry", "TrustAdmissionHook", "AgentTaskBoard"]);

    const publicClient = createPublicClient({ transport: custom(chain.provider) });
    const oracle = result.actions[0]!.address;
    expect(file.contracts.TrustAdmissionHook!.constructorArgs).toEqual([
      {
        oracle,
        identityRegistry: result.actions[1]!.address,
        agentChainId: "8453",
        agentRegistry: "erc8004",
        policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 172800, requireController: true },
      },
      result.deployer,
    ]);
    expect(file.contracts.AgentTaskBoard!.constructorArgs).toEqual([result.actions[2]!.address, result.deployer]);
    expect(file.contracts.TrustScoreOracle!.constructorArgs).toEqual([result.deployer]);
    expect(file.contracts.MockIdentityRegistry!.constructorArgs).toEqual([]);

    const requireFromTest = createRequire(import.meta.url);
    for (const [name, record] of Object.entries(file.contracts)) {
      expect(record.name).toBe(name);
      expect(record.gitCommit).toBe("0123456789abcdef0123456789abcdef01234567");
      expect(Number.isNaN(Date.parse(record.deployedAt))).toBe(false);
      const receipt = await publicClient.getTransactionReceipt({ hash: record.transactionHash });
      expect(receipt.contractAddress && getAddress(receipt.contractAddress)).toBe(record.address);
      expect(Number(receipt.blockNumber)).toBe(record.blockNumber);

      // The fingerprint is name + creation bytecode + encoded arguments, and the args file that hardhat-verify
      // reads reproduces the creation transaction's input exactly.
      const source =
        name === "TrustScoreOracle"
          ? "oracle/TrustScoreOracle.sol"
          : name === "MockIdentityRegistry"
            ? "testing/MockIdentityRegistry.sol"
            : `examples/${name}.sol`;
      const artifact = JSON.parse(readFileSync(join("artifacts", "contracts", source, `${name}.json`), "utf8")) as {
        abi: Abi;
        bytecode: Hex;
      };
      const tx = await publicClient.getTransaction({ hash: record.transactionHash });
      const argsFromFile = requireFromTest(join(dir, "31337", `${name}.args.js`)) as unknown[];
      expect(argsFromFile).toEqual(record.constructorArgs);
      const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: argsFromFile });
      expect(tx.input).toBe(data);
      expect(record.fingerprint).toBe(deploymentFingerprint(name, artifact.bytecode, `0x${data.slice(artifact.bytecode.length)}`));
    }
  });

  test("the recorded git commit defaults to the working tree's HEAD", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    expect(currentGitCommit()).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(currentGitCommit("/")).toBeNull();
  });

  test("a second run with the same configuration deploys nothing and says so", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const first = await deployLocal(chain, dir);
    const before = readFileSync(join(dir, "31337.json"), "utf8");
    const nonce = await nonceOf(chain.provider, first.deployer);
    const lines: string[] = [];
    const second = await deployLocal(chain, dir, { log: (line) => lines.push(line) });
    expect(second.transactionsSent).toBe(0);
    expect(second.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(second.actions.map((a) => a.address)).toEqual(first.actions.map((a) => a.address));
    expect(await nonceOf(chain.provider, first.deployer)).toBe(nonce);
    expect(readFileSync(join(dir, "31337.json"), "utf8")).toBe(before);
    expect(lines.at(-1)).toMatch(/^Nothing to deploy: every contract in .*31337\.json is up to date\.$/);
  });

  test("a changed policy redeploys the hook and, because its argument changed, the board, but not the oracle nor the registry", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const first = await deployLocal(chain, dir);
    const changed = shippedNetwork("hardhat", { policy: { minScore: 75, maxSybilSeverity: 1, maxAge: 86400, requireController: true } });
    const second = await deployLocal(chain, dir, { config: changed });
    expect(second.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "deployed", "deployed"]);
    expect(second.actions[0]!.address).toBe(first.actions[0]!.address);
    expect(second.actions[1]!.address).toBe(first.actions[1]!.address);
    expect(second.actions[2]!.address).not.toBe(first.actions[2]!.address);
    const file = readFile(dir, 31337);
    expect(file.contracts.TrustAdmissionHook!.address).toBe(second.actions[2]!.address);
    expect(file.contracts.AgentTaskBoard!.constructorArgs[0]).toBe(second.actions[2]!.address);
  });

  test("a changed gateOracle redeploys the gates: each says which address it replaces, and the file keeps the old ones in its history", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const onReference = shippedNetwork("localhost", { gateOracle: "oracle" });
    const first = await deployLocal(chain, dir, { config: onReference });
    const [oldHook, oldBoard] = [first.actions[3]!, first.actions[4]!];
    expect([oldHook.name, oldBoard.name]).toEqual(["TrustAdmissionHook", "AgentTaskBoard"]);
    const before = readFile(dir, 31337);
    expect(before.history).toBeUndefined();

    // The dry run says it too.
    const dryLines: string[] = [];
    const dry = await deployLocal(chain, dir, { config: shippedNetwork("localhost"), dryRun: true, log: (l) => dryLines.push(l) });
    expect(dry.actions.map((a) => a.replaces)).toEqual([undefined, undefined, undefined, oldHook.address, oldBoard.address]);
    expect(dryLines.join("\n")).toContain(
      `    replaces ${oldHook.address}, deployed in block ${before.contracts.TrustAdmissionHook!.blockNumber}`,
    );

    const lines: string[] = [];
    const second = await deployLocal(chain, dir, { config: shippedNetwork("localhost"), log: (l) => lines.push(l) });
    expect(second.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "unchanged", "deployed", "deployed"]);
    const [newHook, newBoard] = [second.actions[3]!, second.actions[4]!];
    expect(newHook.constructorArgs[0]).toMatchObject({ oracle: second.actions[1]!.address });
    expect(newHook.replaces).toBe(oldHook.address);
    const text = lines.join("\n");
    expect(text).toMatch(
      new RegExp(
        `\\+ deployed TrustAdmissionHook at ${newHook.address} .*\\n {4}replaces ${oldHook.address}, deployed in block \\d+ \\(kept in .*31337\\.json under "history"\\)`,
      ),
    );
    expect(text).toContain(`    replaces ${oldBoard.address}`);

    const after = readFile(dir, 31337);
    expect(after.contracts.TrustAdmissionHook!.address).toBe(newHook.address);
    expect(after.history).toEqual([
      { ...before.contracts.TrustAdmissionHook, replacedBy: newHook.address, replacedAt: after.contracts.TrustAdmissionHook!.deployedAt },
      { ...before.contracts.AgentTaskBoard, replacedBy: newBoard.address, replacedAt: after.contracts.AgentTaskBoard!.deployedAt },
    ]);
    // Read back as the next run reads it: the history stays, and nothing is deployed.
    const third = await deployLocal(chain, dir, { config: shippedNetwork("localhost") });
    expect(third.transactionsSent).toBe(0);
    expect(readFile(dir, 31337).history).toEqual(after.history);
  });

  test("a recorded contract whose code is gone (chain reset) is deployed again", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const first = await deployLocal(chain, dir);
    await chain.provider.request({ method: "hardhat_setCode", params: [first.actions[3]!.address, "0x"] });
    const second = await deployLocal(chain, dir);
    expect(second.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "unchanged", "deployed"]);
    expect(second.transactionsSent).toBe(1);
  });

  test("--dry-run prints contracts, arguments and estimated gas, and sends nothing", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const [deployer] = (await chain.provider.request({ method: "eth_accounts" })) as [Address];
    const nonce = await nonceOf(chain.provider, deployer);
    const blockBefore = await chain.provider.request({ method: "eth_blockNumber" });
    const lines: string[] = [];
    const dry = await deployLocal(chain, dir, { dryRun: true, log: (line) => lines.push(line) });
    expect(await nonceOf(chain.provider, deployer)).toBe(nonce);
    expect(await chain.provider.request({ method: "eth_blockNumber" })).toBe(blockBefore);
    expect(existsSync(join(dir, "31337.json"))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(dry.transactionsSent).toBe(0);
    expect(dry.actions.map((a) => a.status)).toEqual(["would-deploy", "would-deploy", "would-deploy", "would-deploy"]);
    // The oracle and the registry have no dependency: estimated by eth_estimateGas. The gates depend on contracts
    // not yet deployed, which Hardhat's node cannot override in eth_estimateGas: measured in an eth_call instead.
    expect(dry.actions.map((a) => a.gasMethod)).toEqual(["eth_estimateGas", "eth_estimateGas", "eth_call", "eth_call"]);
    for (const action of dry.actions) expect(action.gas).toBeGreaterThan(500_000n);
    expect(lines.join("\n")).toContain(`    estimated gas: ${dry.actions[2]!.gas} (measured in an eth_call with a state override`);
    const total = dry.actions.reduce((sum, a) => sum + a.gas!, 0n);
    expect(lines.at(-2)).toBe(`Estimated gas in total: ${total} for 4 contract(s)`);
    expect(lines.join("\n")).toContain(`+ would deploy TrustScoreOracle at ${dry.actions[0]!.address} (predicted)`);
    expect(lines.join("\n")).toContain(`    constructor arguments: ${JSON.stringify([getAddress(deployer)])}`);
    expect(lines.join("\n")).toContain(`    estimated gas: ${dry.actions[0]!.gas}`);
    expect(lines.at(-1)).toBe("Dry run: nothing sent; 4 contract(s) would be deployed.");

    // The predictions hold: the real run deploys at the predicted addresses, with the predicted arguments,
    // and the estimate covers the gas used.
    const real = await deployLocal(chain, dir);
    expect(real.actions.map((a) => a.address)).toEqual(dry.actions.map((a) => a.address));
    expect(real.actions.map((a) => a.constructorArgs)).toEqual(dry.actions.map((a) => a.constructorArgs));
    expect(dry.actions[0]!.gas! >= real.actions[0]!.gas!).toBe(true);
    expect(real.actions.slice(2).map((a) => a.gas)).toEqual(dry.actions.slice(2).map((a) => a.gas));

    // After deployment, a dry run reports everything unchanged and still sends nothing.
    const nonceAfter = await nonceOf(chain.provider, deployer);
    const again = await deployLocal(chain, dir, { dryRun: true });
    expect(again.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(await nonceOf(chain.provider, deployer)).toBe(nonceAfter);
  });

  test("a dry run estimates a gate whose oracle and registry already exist", async () => {
    const chain = await chainWithId(31337);
    const dir = tempDeploymentsDir();
    const first = await deployLocal(chain, dir, { config: shippedNetwork("hardhat", { contracts: ["TrustAdmissionHook"] }) });
    const [oracle, identityRegistry] = first.actions.map((a) => a.address) as [Address, Address];
    const dry = await deployLocal(chain, tempDeploymentsDir(), {
      dryRun: true,
      config: shippedNetwork("hardhat", { oracle, identityRegistry, contracts: ["TrustAdmissionHook", "AgentTaskBoard"] }),
    });
    expect(dry.actions.map((a) => a.name)).toEqual(["TrustAdmissionHook", "AgentTaskBoard"]);
    expect(dry.actions[0]!.gas).toBeGreaterThan(500_000n);
  });
});

describe("safety checks", () => {
  test("refuses a task board behind a hook without the controller check before any request to the chain", async () => {
    const requests: string[] = [];
    const provider = {
      request: async ({ method }: { method: string }) => {
        requests.push(method);
        throw new Error(`unexpected request ${method}`);
      },
    };
    const attempt = deploy({
      network: "hardhat",
      config: shippedNetwork("hardhat", {
        identityRegistry: null,
        policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 172800, requireController: false },
        contracts: ["TrustAdmissionHook", "AgentTaskBoard"],
      }),
      provider,
      deploymentsDir: tempDeploymentsDir(),
    });
    await expect(attempt).rejects.toThrow(
      'network "hardhat": AgentTaskBoard requires policy.requireController = true (configured: false): it pays the account that takes a task',
    );
    await expect(attempt).rejects.toMatchObject({ reason: "bad-config" });
    expect(requests).toEqual([]);
  });

  test("refuses Base mainnet (8453) and Ethereum mainnet (1) without confirmMainnet, sending nothing", async () => {
    for (const chainId of [8453, 1]) {
      const chain = await chainWithId(chainId);
      const dir = tempDeploymentsDir();
      const config = shippedNetwork("base", { chainId, oracle: "deploy-reference" });
      const deployer = privateKeyToAccount(HARDHAT_KEY_0).address;
      const nonce = await nonceOf(chain.provider, deployer);
      const attempt = deploy({
        network: "base",
        config,
        provider: chain.provider,
        deploymentsDir: dir,
        env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
      });
      await expect(attempt).rejects.toThrow(`Refusing to deploy to mainnet (chain ${chainId}) without --confirm-mainnet`);
      await expect(attempt).rejects.toMatchObject({ reason: "mainnet-not-confirmed" });
      expect(await nonceOf(chain.provider, deployer)).toBe(nonce);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  test("a dry run on mainnet needs no confirmation: it plans and sends nothing", async () => {
    const chain = await chainWithId(8453);
    const dir = tempDeploymentsDir();
    const config = shippedNetwork("base", {
      oracle: "deploy-reference",
      identityRegistry: null,
      policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 172800, requireController: false },
      contracts: ["TrustAdmissionHook"],
    });
    const deployer = privateKeyToAccount(HARDHAT_KEY_0).address;
    const nonce = await nonceOf(chain.provider, deployer);
    const dry = await deploy({
      network: "base",
      config,
      provider: chain.provider,
      deploymentsDir: dir,
      dryRun: true,
      env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
    });
    expect(dry.actions.map((a) => a.status)).toEqual(["would-deploy", "would-deploy"]);
    expect(await nonceOf(chain.provider, deployer)).toBe(nonce);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("with confirmMainnet it deploys on a mainnet chain id, signing with DEPLOYER_PRIVATE_KEY", async () => {
    const chain = await chainWithId(8453);
    const dir = tempDeploymentsDir();
    const config = shippedNetwork("base", {
      oracle: "deploy-reference",
      identityRegistry: null,
      policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 172800, requireController: false },
      contracts: ["TrustAdmissionHook"],
    });
    const lines: string[] = [];
    const result = await deploy({
      network: "base",
      config,
      provider: chain.provider,
      deploymentsDir: dir,
      confirmMainnet: true,
      env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
      log: (line) => lines.push(line),
    });
    expect(result.deployer).toBe(privateKeyToAccount(HARDHAT_KEY_0).address);
    expect(result.actions.map((a) => a.status)).toEqual(["deployed", "deployed"]);
    expect(readFile(dir, 8453).contracts.TrustScoreOracle!.constructorArgs).toEqual([result.deployer]);
    // The key is never printed.
    expect(lines.join("\n")).not.toContain(HARDHAT_KEY_0.slice(2));
  });

  test("a missing key on a non-local network fails with a clear message, before sending anything", async () => {
    const chain = await chainWithId(84532);
    const dir = tempDeploymentsDir();
    const attempt = deploy({
      network: "baseSepolia",
      config: shippedNetwork("baseSepolia"),
      provider: chain.provider,
      deploymentsDir: dir,
      env: {},
    });
    await expect(attempt).rejects.toBeInstanceOf(DeploymentError);
    await expect(attempt).rejects.toMatchObject({
      reason: "missing-key",
      shortMessage: "DEPLOYER_PRIVATE_KEY is not set: deploying to baseSepolia (chain 84532) needs the deployer's private key",
    });
    await expect(attempt).rejects.toThrow(/npx hardhat vars set DEPLOYER_PRIVATE_KEY/);
    expect(readdirSync(dir)).toEqual([]);

    // A Hardhat configuration variable is used when the environment has none.
    const viaVars = await deploy({
      network: "baseSepolia",
      config: shippedNetwork("baseSepolia"),
      provider: chain.provider,
      deploymentsDir: dir,
      env: {},
      readVar: (name) => (name === "DEPLOYER_PRIVATE_KEY" ? HARDHAT_KEY_0 : undefined),
      dryRun: true,
    });
    expect(viaVars.deployer).toBe(privateKeyToAccount(HARDHAT_KEY_0).address);
  });

  test("a malformed key is refused without echoing it", async () => {
    const chain = await chainWithId(84532);
    const secretish = "0xdeadbeefcafe1234";
    const attempt = deploy({
      network: "baseSepolia",
      config: shippedNetwork("baseSepolia"),
      provider: chain.provider,
      deploymentsDir: tempDeploymentsDir(),
      env: { DEPLOYER_PRIVATE_KEY: secretish },
    });
    await expect(attempt).rejects.toMatchObject({ reason: "bad-key" });
    const error = (await attempt.catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain("deadbeefcafe1234");
  });

  test("refuses an RPC endpoint whose chain is not the configured one", async () => {
    const chain = await chainWithId(31337);
    await expect(
      deploy({
        network: "baseSepolia",
        config: shippedNetwork("baseSepolia"),
        provider: chain.provider,
        deploymentsDir: tempDeploymentsDir(),
        env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
      }),
    ).rejects.toMatchObject({
      reason: "chain-mismatch",
      shortMessage: 'The RPC endpoint is chain 31337, but network "baseSepolia" is configured as chain 84532',
    });
  });

  test("refuses a configured oracle address without code", async () => {
    const chain = await chainWithId(31337);
    const config = shippedNetwork("hardhat", { oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" });
    await expect(deployLocal(chain, tempDeploymentsDir(), { config })).rejects.toMatchObject({ reason: "no-code" });
  });
});

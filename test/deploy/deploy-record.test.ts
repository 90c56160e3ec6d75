// The deployment's record and closing lines: the history of replaced deployments, kept by the recorder and read back
// (and a file written before it had one still read); a dry run's gas total, and what it says when a gas is unknown.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { deploymentRecorder, estimatedGasTotal } from "../../src/deploy/deploy-record.js";
import { type DeploymentRecord, readDeploymentsFile } from "../../src/deploy/deployments-file.js";
import { DeploymentError } from "../../src/errors.js";
import { tempDeploymentsDir } from "./support.js";
import type { DeployAction } from "../../src/deploy/deploy-types.js";

function action(name: string, status: DeployAction["status"], gas: bigint | undefined): DeployAction {
  return {
    name,
    status,
    address: "0x0000000000000000000000000000000000000001",
    constructorArgs: [],
    transactionHash: undefined,
    replaces: undefined,
    gas,
    gasMethod: gas === undefined ? undefined : "eth_estimateGas",
    gasNote: gas === undefined ? "estimation failed: reverted" : undefined,
  };
}

describe("estimatedGasTotal", () => {
  test("sums the contracts a dry run would deploy, leaving out those kept", () => {
    const line = estimatedGasTotal([
      action("A", "unchanged", undefined),
      action("B", "would-deploy", 1_000n),
      action("C", "would-deploy", 234n),
    ]);
    expect(line).toBe("Estimated gas in total: 1234 for 2 contract(s)");
  });

  test("a contract whose gas is unknown makes the total a lower bound, and is named", () => {
    const line = estimatedGasTotal([action("B", "would-deploy", 1_000n), action("C", "would-deploy", undefined)]);
    expect(line).toBe("Estimated gas in total: at least 1000 for 2 contract(s) (unknown for C)");
  });
});

const RECORD: DeploymentRecord = {
  name: "TrustAdmissionHook",
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  transactionHash: `0x${"ab".repeat(32)}`,
  blockNumber: 12,
  constructorArgs: [],
  fingerprint: `0x${"cd".repeat(32)}`,
  gitCommit: null,
  deployedAt: "2026-11-22T12:00:00.000Z",
};
const NEWER: DeploymentRecord = {
  ...RECORD,
  address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  blockNumber: 40,
  deployedAt: "2026-11-29T12:00:00.000Z",
};

describe("the deployments file's history", () => {
  test("a replaced record moves to the history, with what replaced it and when, and is read back", () => {
    const dir = tempDeploymentsDir();
    const recorder = deploymentRecorder(dir, { chainId: 31337, network: "localhost", contracts: {} }, true);
    recorder.add(RECORD);
    expect(readDeploymentsFile(dir, 31337, "localhost").history).toBeUndefined();
    recorder.add(NEWER, RECORD);
    const file = readDeploymentsFile(dir, 31337, "localhost");
    expect(file.contracts.TrustAdmissionHook).toEqual(NEWER);
    expect(file.history).toEqual([{ ...RECORD, replacedBy: NEWER.address, replacedAt: NEWER.deployedAt }]);
  });

  test("a file written before the history existed is read as it is; a history entry without its replacement is refused", () => {
    const dir = tempDeploymentsDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "31337.json"),
      JSON.stringify({ chainId: 31337, network: "localhost", contracts: { TrustAdmissionHook: RECORD } }),
    );
    expect(readDeploymentsFile(dir, 31337, "localhost")).toEqual({
      chainId: 31337,
      network: "localhost",
      contracts: { TrustAdmissionHook: RECORD },
    });
    writeFileSync(
      join(dir, "31337.json"),
      JSON.stringify({
        chainId: 31337,
        network: "localhost",
        contracts: { TrustAdmissionHook: NEWER },
        history: [{ ...RECORD, replacedAt: "x" }],
      }),
    );
    let caught: unknown;
    try {
      readDeploymentsFile(dir, 31337, "localhost");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DeploymentError);
    expect((caught as DeploymentError).shortMessage).toMatch(/31337\.json is malformed$/);
    expect((caught as DeploymentError).metaMessages.join("\n")).toContain("history.0.replacedBy");
  });
});

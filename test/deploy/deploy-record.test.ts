// The deployment's closing lines: a dry run's gas total, and what it says when a contract's gas is unknown.
import { describe, expect, test } from "vitest";
import { estimatedGasTotal } from "../../src/deploy/deploy-record.js";
import type { DeployAction } from "../../src/deploy/deploy-types.js";

function action(name: string, status: DeployAction["status"], gas: bigint | undefined): DeployAction {
  return {
    name,
    status,
    address: "0x0000000000000000000000000000000000000001",
    constructorArgs: [],
    transactionHash: undefined,
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

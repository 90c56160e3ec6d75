// The arithmetic of the sender's spending: a replacement's fees (12.5 % up, rounded up, at least the chain's current
// fees, never over the ceiling), the budget's check and charge in wei and in gas, and the amounts of the command line.
import { describe, expect, it } from "vitest";
import { parseBudget, parseFeePerGas } from "../../src/inputs/amount";
import { openBudgetAccount } from "../../src/refresh/budget";
import { formatGwei, raisedFees } from "../../src/refresh/fees";

describe("raisedFees", () => {
  const fees = { maxFeePerGas: 1_000n, maxPriorityFeePerGas: 9n };
  const low = { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };

  it("raises both fees by an eighth, rounded up", () => {
    expect(raisedFees(fees, low)).toEqual({ maxFeePerGas: 1_125n, maxPriorityFeePerGas: 11n });
  });

  it("offers at least the chain's current fees", () => {
    expect(raisedFees(fees, { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 100n })).toEqual({
      maxFeePerGas: 5_000n,
      maxPriorityFeePerGas: 100n,
    });
  });

  it("refuses a raise over the ceiling, and allows one at it", () => {
    expect(raisedFees(fees, low, 1_124n)).toBeNull();
    expect(raisedFees(fees, low, 1_125n)).toEqual({ maxFeePerGas: 1_125n, maxPriorityFeePerGas: 11n });
  });
});

describe("openBudgetAccount", () => {
  it("in wei: a transaction fits when its gas at its max fee fits what is left; charged at its effective price", () => {
    const account = openBudgetAccount({ unit: "wei", amount: 1_000_000n });
    expect(account.check(100_000n, 10n)).toBeNull();
    account.charge(90_000n, 8n);
    expect(account.spent()).toBe(720_000n);
    expect(account.check(30_000n, 10n)).toBe(
      "the next transaction's estimate of 30000 gas at 10 wei per gas (300000 wei) is over what is left of --budget 1000000 wei (280000 wei)",
    );
    expect(account.check(28_000n, 10n)).toBeNull();
  });

  it("in gas: the estimate against the gas left, charged the gas used", () => {
    const account = openBudgetAccount({ unit: "gas", amount: 500_000n });
    account.charge(400_000n, 1_000_000_000n);
    expect(account.spent()).toBe(400_000n);
    expect(account.check(100_001n, 1n)).toBe(
      "the next transaction's estimate of 100001 gas is over what is left of --budget 500000 gas (100000 gas)",
    );
    expect(account.check(100_000n, 1n)).toBeNull();
  });

  it("without a budget, everything fits", () => {
    expect(openBudgetAccount().check(10n ** 30n, 10n ** 30n)).toBeNull();
  });
});

describe("the command line's amounts", () => {
  it("reads fees per gas in gwei and wei, and budgets in ether, gwei, wei and gas", () => {
    expect(parseFeePerGas("2gwei", "--max-fee-per-gas")).toBe(2_000_000_000n);
    expect(parseFeePerGas(" 0.000000001 GWEI ", "--max-fee-per-gas")).toBe(1n);
    expect(parseBudget("0.01eth", "--budget")).toEqual({ unit: "wei", amount: 10_000_000_000_000_000n });
    expect(parseBudget("5gwei", "--budget")).toEqual({ unit: "wei", amount: 5_000_000_000n });
    expect(parseBudget("5000000gas", "--budget")).toEqual({ unit: "gas", amount: 5_000_000n });
  });

  it("refuses a bare number, a fraction of a wei or of a gas, and zero", () => {
    for (const value of ["2", "0.5wei", "0gwei", "1.5gas", "1 ether"]) {
      expect(() => (value.endsWith("gas") ? parseBudget(value, "--budget") : parseFeePerGas(value, "--max-fee-per-gas"))).toThrow(
        /must be/,
      );
    }
  });

  it("writes fees per gas in gwei, or in wei under one gwei", () => {
    expect(formatGwei(1_500_000_000n)).toBe("1.5 gwei");
    expect(formatGwei(2_000_000_000n)).toBe("2 gwei");
    expect(formatGwei(999n)).toBe("999 wei");
  });
});

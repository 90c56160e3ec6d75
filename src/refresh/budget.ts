/**
 * The budget of one refresh run (`--budget`): an amount of ETH (in wei) or of gas the run may spend. What is charged
 * is what was sent: each transaction's gas used, times its effective gas price for a budget in wei. Before each
 * transaction, its estimate at its `maxFeePerGas` (or its gas estimate, for a budget in gas) must fit what is left,
 * so that the run can never spend more than the budget, whatever the block then charges.
 *
 * @packageDocumentation
 */

/** A run's budget: `amount` wei (`unit: "wei"`) or gas (`unit: "gas"`). */
export interface RefreshBudget {
  readonly unit: "wei" | "gas";
  readonly amount: bigint;
}

/** Keeps the account of one run's spending against its budget. */
export interface BudgetAccount {
  /**
   * Whether a transaction fits what is left.
   *
   * @param gas - Its gas estimate.
   * @param maxFeePerGas - Its `maxFeePerGas`.
   * @returns `null` when it fits, else why not (for the report).
   */
  check(gas: bigint, maxFeePerGas: bigint): string | null;
  /**
   * Charges a mined transaction.
   *
   * @param gasUsed - Its gas used.
   * @param effectiveGasPrice - Its price per gas.
   */
  charge(gasUsed: bigint, effectiveGasPrice: bigint): void;
  /** What was charged, in the budget's unit. */
  spent(): bigint;
}

/**
 * Opens the account of a run's budget.
 *
 * @param budget - The budget; absent: no limit (`check` always passes).
 * @returns The account.
 */
export function openBudgetAccount(budget?: RefreshBudget): BudgetAccount {
  let spent = 0n;
  return {
    check(gas, maxFeePerGas) {
      if (budget === undefined) return null;
      const cost = budget.unit === "gas" ? gas : gas * maxFeePerGas;
      const left = budget.amount - spent;
      if (cost <= left) return null;
      return budget.unit === "gas"
        ? `the next transaction's estimate of ${gas} gas is over what is left of --budget ${budget.amount} gas (${left} gas)`
        : `the next transaction's estimate of ${gas} gas at ${maxFeePerGas} wei per gas (${cost} wei) is over what is left of --budget ${budget.amount} wei (${left} wei)`;
    },
    charge(gasUsed, effectiveGasPrice) {
      spent += budget?.unit === "gas" ? gasUsed : gasUsed * effectiveGasPrice;
    },
    spent: () => spent,
  };
}

// What a refresh that sends checks before the first request to the service or the chain's wallet: the chain is the
// drift report's, and a mainnet needs confirmMainnet; and how the command words a send outcome and picks its exit
// code. Stand-in clients that count what is asked of them (no chain).
import { describe, expect, it } from "vitest";
import { resultOf } from "../../src/cli/refresh-connect";
import { planRefresh } from "../../src/refresh/plan";
import type { RefreshSendOutcome } from "../../src/refresh/send";
import { sendRefreshPlan } from "../../src/refresh/send";
import { GENERATED_AT, REFRESH_POSSIBLE, report, row } from "../cli/report-fixture";

const plan = planRefresh(
  report([row({ agentId: "1", status: "missing-onchain", onchain: null, scoreDelta: null, refresh: REFRESH_POSSIBLE })]),
  { now: new Date(GENERATED_AT) },
);

function standIns(chainId: number) {
  const asked: string[] = [];
  const record = (what: string) => () => {
    asked.push(what);
    return Promise.reject(new Error(`${what} should not be reached`));
  };
  const clients = {
    public: {
      getChainId: () => Promise.resolve(chainId),
      estimateFeesPerGas: () => (asked.push("estimateFeesPerGas"), Promise.resolve({ maxFeePerGas: 2n, maxPriorityFeePerGas: 1n })),
      simulateContract: record("simulateContract"),
    },
    wallet: { account: { address: "0x0000000000000000000000000000000000000002" }, writeContract: record("writeContract") },
  };
  const api = { trustCheck: record("trustCheck") };
  return { asked, clients, api };
}

async function send(chainId: number, confirmMainnet: boolean) {
  const { asked, clients, api } = standIns(chainId);
  const sending = sendRefreshPlan(plan, {
    clients: clients as never,
    api: api as never,
    attestedOracle: "0x0000000000000000000000000000000000000001",
    issuer: "https://rnwy.com",
    jwks: {} as never,
    confirmMainnet,
  });
  return { sending, asked };
}

describe("sendRefreshPlan: the guards before anything is fetched or sent", () => {
  it("refuses a mainnet without confirmMainnet, asking neither the service nor the wallet", async () => {
    const { sending, asked } = await send(8453, false);
    await expect(sending).rejects.toThrow("Chain 8453 is a mainnet: nothing is sent there without --confirm-mainnet");
    expect(asked).toEqual([]);
  });

  it("refuses a chain other than the drift report's", async () => {
    const { sending, asked } = await send(84532, true);
    await expect(sending).rejects.toThrow("The chain of the RPC is 84532, the drift report's is 8453");
    expect(asked).toEqual([]);
  });

  it("with confirmMainnet reads the fees, then fetches the attestation (here a stand-in that fails: the row is not-fetched)", async () => {
    const { sending, asked } = await send(8453, true);
    const outcome = await sending;
    expect(asked).toEqual(["estimateFeesPerGas", "trustCheck"]);
    expect(outcome.attestations).toEqual([
      {
        agent: "base:1:erc8004",
        batch: 0,
        outcome: "not-fetched",
        error: "the service gave no attestation: trustCheck should not be reached",
      },
    ]);
    expect(outcome.transactions).toEqual([]);
  });
});

describe("resultOf: the command's words and exit code for a send outcome", () => {
  const base: RefreshSendOutcome = {
    attestedOracle: "0x0000000000000000000000000000000000000001",
    chainId: 8453,
    from: "0x0000000000000000000000000000000000000002",
    attestations: [
      { agent: "base:1:erc8004", batch: 0, outcome: "stored", kid: "rnwy-trust-v2", transaction: `0x${"ab".repeat(32)}` },
      { agent: "base:2:erc8004", batch: 0, outcome: "already-current", kid: "rnwy-trust-v2" },
    ],
    transactions: [
      {
        batch: 0,
        nonce: 7,
        hash: `0x${"ab".repeat(32)}`,
        sent: [{ hash: `0x${"ab".repeat(32)}`, maxFeePerGas: "20", maxPriorityFeePerGas: "1" }],
        status: "success",
        attestations: 1,
        stored: 1,
        gasUsed: "120000",
        effectiveGasPrice: "10",
        costWei: "1200000",
        fromJournal: false,
      },
    ],
    totals: {
      stored: 1,
      "already-current": 1,
      "no-op": 0,
      refused: 0,
      "not-fetched": 0,
      replaced: 0,
      stopped: 0,
      transactions: 1,
      gasUsed: "120000",
      costWei: "1200000",
    },
  };

  it("exits 0 when everything due was stored or is already current", () => {
    const result = resultOf(base);
    expect(result.exitCode).toBe(0);
    expect(result.text).toBe(
      `batch 0: 0x${"ab".repeat(32)} nonce 7, 1 of 1 stored, gas 120,000\n` +
        "Sent: 1 transaction to 0x0000000000000000000000000000000000000001 (chain 8453); stored 1, already current 1, no-op 0, refused 0, not fetched 0, replaced 0, stopped 0; gas 120,000, cost 1200000 wei\n",
    );
  });

  it("exits 3 and names the agent and the contract's error when one was refused", () => {
    const refused: RefreshSendOutcome = {
      ...base,
      attestations: [
        ...base.attestations,
        { agent: "base:3:erc8004", batch: 0, outcome: "refused", error: 'RevokedSigningKey("rnwy-trust-v1")' },
      ],
      totals: { ...base.totals, refused: 1 },
    };
    const result = resultOf(refused);
    expect(result.exitCode).toBe(3);
    expect(result.text.split("\n")[0]).toBe('base:3:erc8004: refused: RevokedSigningKey("rnwy-trust-v1")');
  });

  it("exits 4 and says what stopped the run, its fee and ceiling, and what was not sent", () => {
    const stopped: RefreshSendOutcome = {
      ...base,
      attestations: [
        ...base.attestations,
        {
          agent: "base:3:erc8004",
          batch: 1,
          outcome: "stopped",
          stop: "fee-ceiling",
          error: "the chain's fee is 3 gwei (base fee 2 gwei and tip 1 gwei), over the ceiling --max-fee-per-gas 1 gwei",
        },
      ],
      stopped: {
        reason: "fee-ceiling",
        detail: "the chain's fee is 3 gwei (base fee 2 gwei and tip 1 gwei), over the ceiling --max-fee-per-gas 1 gwei",
      },
      totals: { ...base.totals, stopped: 1 },
    };
    const result = resultOf(stopped);
    expect(result.exitCode).toBe(4);
    expect(result.text.split("\n").at(-2)).toBe(
      "Stopped by the fee ceiling (stopped: fee-ceiling): the chain's fee is 3 gwei (base fee 2 gwei and tip 1 gwei), over the ceiling --max-fee-per-gas 1 gwei. Not sent: 1 attestation (base:3:erc8004)",
    );
  });
});

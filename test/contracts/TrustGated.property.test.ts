import { time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import fc from "fast-check";
import { describe, it } from "vitest";
import { type ControllerStatus, evaluateTrustPolicy, TRUST_REFUSALS, type TrustRefusal } from "../../src/policy";
import { GateProbe__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, DAY, deployTrustStack, ERC8004, HOUR, latestTimestamp } from "../support/fixtures";

/** Error name raised by `GatedAction.act` for each refusal. */
const ERROR_OF: Record<Exclude<TrustRefusal, "None">, string> = {
  OracleUnavailable: "TrustOracleUnavailable",
  OracleMalformedResponse: "TrustOracleMalformedResponse",
  RecordMissing: "TrustRecordMissing",
  RecordFromFuture: "TrustRecordFromFuture",
  RecordStale: "TrustRecordStale",
  ScoreTooLow: "TrustScoreTooLow",
  SybilSeverityTooHigh: "SybilSeverityTooHigh",
  AgentIdentityUnavailable: "AgentIdentityUnavailable",
  NotAgentController: "NotAgentController",
};

const recordArb = fc.record({
  present: fc.boolean(),
  score: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(29, 30, 50, 51, 74, 75, 95)),
  tier: fc.integer({ min: 0, max: 3 }),
  sybilSeverity: fc.integer({ min: 0, max: 4 }),
  // Age of the record at the time of the call, seconds; negative = dated in the future.
  age: fc.oneof(fc.integer({ min: -HOUR, max: 4 * DAY }), fc.constantFrom(-1, 0, 36 * HOUR, 36 * HOUR + 1)),
});
const policyArb = fc.record({
  minScore: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(30, 51, 75)),
  maxSybilSeverity: fc.integer({ min: 0, max: 4 }),
  maxAge: fc.oneof(fc.integer({ min: 1, max: 3 * DAY }), fc.constant(36 * HOUR)),
  requireController: fc.boolean(),
});
const callerArb = fc.constantFrom<ControllerStatus>("controller", "not-controller", "unknown-agent");

describe("TrustGated equals the TypeScript model of the policy", () => {
  it("for random records, policies, callers and times (gated call and trustVerdict, in the same block)", async () => {
    const stack = await deployTrustStack();
    const { gate, oracle, identity, deployer } = stack;
    // Two probe contracts act as accounts: one owns agent 1000, the other controls nothing.
    const controllerProbe = await new GateProbe__factory(deployer).deploy();
    const strangerProbe = await new GateProbe__factory(deployer).deploy();
    const registered = 1000n;
    const unregistered = 999n;
    await identity.registerWithId(await controllerProbe.getAddress(), registered);
    let checked = 0;

    await fc.assert(
      fc.asyncProperty(recordArb, policyArb, callerArb, async (record, policy, caller) => {
        const agentId = caller === "unknown-agent" ? unregistered : registered;
        const probe = caller === "controller" ? controllerProbe : strangerProbe;
        await gate.setTrustPolicy(policy);
        const callTime = (await latestTimestamp()) + 10;
        const updatedAt = record.present ? Math.max(1, callTime - record.age) : 0;
        await oracle.setRecord(agentId, BASE_CHAIN_ID, ERC8004, record.score, record.tier, record.sybilSeverity, updatedAt);
        const expected = evaluateTrustPolicy(
          { score: record.score, tier: record.tier, sybilSeverity: record.sybilSeverity, updatedAt },
          policy,
          callTime,
          caller,
        );

        await time.setNextBlockTimestamp(callTime);
        const receipt = await (await probe.probe(await gate.getAddress(), agentId)).wait();
        const log = receipt!.logs.map((l) => probe.interface.parseLog(l)).find((l) => l?.name === "Probed");
        const [allowed, refusal, succeeded, revertData] = log!.args as unknown as [boolean, bigint, boolean, string];
        let enforced: TrustRefusal = "None";
        if (!succeeded) {
          const name = gate.interface.parseError(revertData)?.name;
          const found = (Object.keys(ERROR_OF) as Array<keyof typeof ERROR_OF>).find((k) => ERROR_OF[k] === name);
          if (!found) throw new Error(`unexpected revert ${revertData}`);
          enforced = found;
        }
        const context = JSON.stringify({ record, policy, caller, updatedAt, callTime });
        expect(enforced, context).to.equal(expected);
        expect(TRUST_REFUSALS[Number(refusal)], context).to.equal(expected);
        expect(allowed, context).to.equal(expected === "None");
        checked++;
      }),
      { numRuns: 200, seed: 20261122 },
    );
    expect(checked).to.equal(200);
  });
});

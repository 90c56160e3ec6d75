import { describe, expect, it } from "vitest";
import { agentKey, parseAgentRefList as parseAgentList, parseAgentRef } from "../../src/agent/agent-ref";
import { formatDuration, parseDuration } from "../../src/cli/duration";
import { InvalidArgumentError } from "../../src/errors";

describe("parseDuration", () => {
  it.each([
    ["36h", 129_600],
    ["90m", 5_400],
    ["2d", 172_800],
    ["1h30m", 5_400],
    ["1w", 604_800],
    ["600", 600],
    [" 45S ", 45],
  ])("%s → %i seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(["", "0", "0h", "h", "36 h", "-1h", "1.5h", "36hours", "1y"])("refuses %j", (text) => {
    expect(() => parseDuration(text)).toThrow(InvalidArgumentError);
  });

  it("formats the two largest units", () => {
    expect(formatDuration(129_600)).toBe("1d 12h");
    expect(formatDuration(5_400)).toBe("1h 30m");
    expect(formatDuration(59)).toBe("59s");
    expect(formatDuration(0)).toBe("0s");
  });
});

describe("parseAgentList", () => {
  it("parses chain:id[:registry], resolves aliases, defaults the registry and removes duplicates", () => {
    expect(parseAgentList("base:1234, bsc:7:olas,base:1234:erc8004")).toEqual([
      { chain: "base", chainId: 8453, agentId: 1234n, registry: "erc8004" },
      { chain: "bnb", chainId: 56, agentId: 7n, registry: "olas" },
    ]);
  });

  it("keeps ids beyond 2^53 exact", () => {
    expect(parseAgentRef("ethereum:123456789012345678901234567890").agentId).toBe(123456789012345678901234567890n);
  });

  it("suggests the right chain slug", () => {
    expect(() => parseAgentRef("basse:1")).toThrow(/Did you mean "base"/);
  });

  it.each([
    ["base", /expected chain:id\[:registry\]/],
    ["base:", /expected chain:id\[:registry\]/],
    ["base:1:erc8004:x", /expected chain:id\[:registry\]/],
    ["base:-1", /not a non-negative integer/],
    ["base:0x10", /not a non-negative integer/],
    ["base:1:nowhere", /unknown registry "nowhere"/],
    ["atlantis:1", /Unknown chain "atlantis"/],
  ])("refuses %j", (entry, message) => {
    expect(() => parseAgentRef(entry)).toThrow(InvalidArgumentError);
    expect(() => parseAgentRef(entry)).toThrow(message);
  });

  it("refuses an empty list", () => {
    expect(() => parseAgentList(" , ")).toThrow(/--agents is empty/);
  });

  it("keys agents by chain, id and registry", () => {
    expect(agentKey(parseAgentRef("op:5:virtuals"))).toBe("optimism:virtuals:5");
  });
});

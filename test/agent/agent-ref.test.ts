import { describe, expect, it } from "vitest";
import { agentKey, compareAgentRefs, formatAgentRef, parseAgentRef, parseAgentRefList as parseAgentList } from "../../src/agent/agent-ref";
import { InvalidArgumentError } from "../../src/errors";
import { formatRecordKey, recordKeyOf } from "../../src/oracle/record-key";

describe("one agent reference", () => {
  it("parses, formats back, orders and keys an agent", () => {
    const ref = parseAgentRef("bsc:0042:OLAS");
    expect(ref).toEqual({ chain: "bnb", chainId: 56, agentId: 42n, registry: "olas" });
    expect(formatAgentRef(ref)).toBe("bnb:42:olas");
    expect(parseAgentRef(formatAgentRef(ref))).toEqual(ref);
    expect(agentKey(ref)).toBe("bnb:olas:42");
    const sorted = ["base:10", "base:9:olas", "base:9", "arbitrum:100"]
      .map(parseAgentRef)
      .sort(compareAgentRefs)
      .map((agent) => formatAgentRef(agent));
    expect(sorted).toEqual(["arbitrum:100:erc8004", "base:9:erc8004", "base:9:olas", "base:10:erc8004"]);
  });

  it("formats without the default registry when asked, and what it writes reads back", () => {
    const short = (text: string) => formatAgentRef(parseAgentRef(text), { omitDefaultRegistry: true });
    expect(short("base:9")).toBe("base:9");
    expect(short("base:9:olas")).toBe("base:9:olas");
    expect(parseAgentRef(short("base:9"))).toEqual(parseAgentRef("base:9:erc8004"));
    expect(formatAgentRef({ chain: "base", agentId: "12", registry: "erc8004" })).toBe("base:12:erc8004");
  });

  it("becomes an oracle record key in one place, and only on an EVM chain", () => {
    const ref = parseAgentRef("base:7:virtuals");
    expect(ref.chainId).toBe(8453);
    expect(recordKeyOf({ ...ref, chainId: 8453 })).toEqual({ agentId: 7n, chainId: 8453, registry: "virtuals" });
    expect(formatRecordKey(recordKeyOf({ ...ref, chainId: 8453 }))).toBe("base:7:virtuals");
    expect(formatRecordKey({ agentId: 7n, chainId: 31337, registry: "erc8004" })).toBe("31337:7:erc8004");
    expect(parseAgentRef(formatRecordKey(recordKeyOf({ ...ref, chainId: 8453 })))).toEqual(ref);
    expect(parseAgentRef("solana:7:sati").chainId).toBeNull();
  });

  it("suggests the registry meant", () => {
    expect(() => parseAgentRef("base:1:olsa")).toThrow(/unknown registry "olsa" \(did you mean "olas"\?\)/);
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

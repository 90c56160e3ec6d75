// The code the local Base simulation places by `hardhat_setCode` is what a constructor deployment leaves (that it
// equals the compiled artifacts is test/generated/generated-files.test.ts's job), and the storage it writes instead
// of running the constructors matches the compiler's storage layout and what the constructors really write.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE, TRUST_SCORE_ORACLE_RUNTIME_BYTECODE } from "../../../src/generated/runtime-bytecode.js";
import { IDENTITY_REGISTRY_NAME, IDENTITY_REGISTRY_SYMBOL } from "../../../src/harness/devnet/identity-registry.js";
import {
  DEFAULT_ADMIN_ROLE,
  MOCK_IDENTITY_REGISTRY_SLOTS,
  PUBLISHER_ROLE,
  roleMemberSlot,
  shortStringWord,
  TRUST_SCORE_ORACLE_SLOTS,
  uintWord,
} from "../../../src/harness/devnet/storage-layout.js";
import { MockIdentityRegistry__factory, TrustScoreOracle__factory } from "../../../typechain-types";

const ROOT = resolve(__dirname, "../../..");

interface StorageEntry {
  label: string;
  slot: string;
  offset: number;
  type: string;
}
interface StorageLayout {
  storage: StorageEntry[];
  types: Record<string, { label: string; members?: StorageEntry[]; encoding: string }>;
}

/** The compiler's storage layout of a contract, from the build that produced its artifact (solc-js, layout only). */
function storageLayout(source: string, name: string): StorageLayout {
  const dbg = JSON.parse(readFileSync(resolve(ROOT, "artifacts", source, `${name}.dbg.json`), "utf8")) as { buildInfo: string };
  const buildInfo = JSON.parse(readFileSync(resolve(ROOT, "artifacts", source, dbg.buildInfo), "utf8")) as {
    input: { settings: Record<string, unknown> };
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc") as { compile(input: string): string };
  const input = {
    ...buildInfo.input,
    settings: { ...buildInfo.input.settings, outputSelection: { [source]: { [name]: ["storageLayout"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts: Record<string, Record<string, { storageLayout: StorageLayout }>>;
    errors?: { severity: string; formattedMessage: string }[];
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  expect(errors.map((e) => e.formattedMessage)).to.deep.equal([]);
  return output.contracts[source]![name]!.storageLayout;
}

function slotsOf(layout: StorageLayout): Record<string, bigint> {
  return Object.fromEntries(layout.storage.map((e) => [e.label, BigInt(e.slot)]));
}

describe("embedded runtime bytecode", () => {
  it("equals the code a constructor deployment leaves (no immutables baked in at deployment)", async () => {
    const [admin] = await hre.ethers.getSigners();
    const oracle = await new TrustScoreOracle__factory(admin!).deploy(admin!.address);
    const registry = await new MockIdentityRegistry__factory(admin!).deploy();
    expect(await hre.ethers.provider.getCode(await oracle.getAddress())).to.equal(TRUST_SCORE_ORACLE_RUNTIME_BYTECODE);
    expect(await hre.ethers.provider.getCode(await registry.getAddress())).to.equal(MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE);
  });
});

describe("storage written instead of running the constructors", () => {
  it("TrustScoreOracle: the compiler puts _records at 0, _recordCount at 1, AccessControl's _roles at 2, hasRole first in RoleData", () => {
    const layout = storageLayout("contracts/oracle/TrustScoreOracle.sol", "TrustScoreOracle");
    expect(slotsOf(layout)).to.deep.equal({
      _records: TRUST_SCORE_ORACLE_SLOTS.records,
      _recordCount: TRUST_SCORE_ORACLE_SLOTS.recordCount,
      _roles: TRUST_SCORE_ORACLE_SLOTS.roles,
    });
    const roleData = Object.values(layout.types).find((t) => t.label === "struct AccessControl.RoleData");
    expect(roleData?.members?.map((m) => [m.label, m.slot, m.offset])).to.deep.equal([
      ["hasRole", "0", 0],
      ["adminRole", "1", 0],
    ]);
  });

  it("MockIdentityRegistry: the compiler's layout is the one the simulation writes", () => {
    const layout = storageLayout("contracts/testing/MockIdentityRegistry.sol", "MockIdentityRegistry");
    const S = MOCK_IDENTITY_REGISTRY_SLOTS;
    expect(slotsOf(layout)).to.deep.equal({
      _name: S.name,
      _symbol: S.symbol,
      _owners: S.owners,
      _balances: S.balances,
      _tokenApprovals: S.tokenApprovals,
      _operatorApprovals: S.operatorApprovals,
      _nextAgentId: S.nextAgentId,
      _agentWallets: S.agentWallets,
    });
  });

  it("the role slots hold exactly what AccessControl's constructor grants write (and a stranger's slot is empty)", async () => {
    const [admin, stranger] = await hre.ethers.getSigners();
    const oracle = await new TrustScoreOracle__factory(admin!).deploy(admin!.address);
    const at = await oracle.getAddress();
    const read = (slot: string) => hre.ethers.provider.getStorage(at, slot);
    expect(await read(roleMemberSlot(DEFAULT_ADMIN_ROLE, admin!.address as `0x${string}`))).to.equal(uintWord(1));
    expect(await read(roleMemberSlot(PUBLISHER_ROLE, admin!.address as `0x${string}`))).to.equal(uintWord(1));
    expect(await read(roleMemberSlot(PUBLISHER_ROLE, stranger!.address as `0x${string}`))).to.equal(uintWord(0));
    expect(PUBLISHER_ROLE).to.equal(await oracle.PUBLISHER_ROLE());
    expect(DEFAULT_ADMIN_ROLE).to.equal(await oracle.DEFAULT_ADMIN_ROLE());
  });

  it("the name, symbol and next-id slots hold what MockIdentityRegistry's constructor writes", async () => {
    const [admin] = await hre.ethers.getSigners();
    const registry = await new MockIdentityRegistry__factory(admin!).deploy();
    const at = await registry.getAddress();
    const read = (slot: bigint) => hre.ethers.provider.getStorage(at, slot);
    const S = MOCK_IDENTITY_REGISTRY_SLOTS;
    expect(await read(S.name)).to.equal(shortStringWord(IDENTITY_REGISTRY_NAME));
    expect(await read(S.symbol)).to.equal(shortStringWord(IDENTITY_REGISTRY_SYMBOL));
    expect(await read(S.nextAgentId)).to.equal(uintWord(1));
    expect(await registry.name()).to.equal(IDENTITY_REGISTRY_NAME);
    expect(await registry.symbol()).to.equal(IDENTITY_REGISTRY_SYMBOL);
  });

  it("shortStringWord refuses strings of 32 bytes or more", () => {
    expect(shortStringWord("AGENT")).to.equal(`0x4147454e54${"00".repeat(26)}0a`);
    expect(() => shortStringWord("x".repeat(32))).to.throw(RangeError);
    expect(shortStringWord("x".repeat(31)).endsWith("3e")).to.equal(true);
  });
});

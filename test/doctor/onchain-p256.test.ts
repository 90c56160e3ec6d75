// `trustgate doctor`'s onchain-p256 check: what answers P-256 verification at 0x100. On Hardhat's network (whose
// default hardfork has the EIP-7951 precompile) it holds and names the 6,900-gas price; against scripted nodes it
// differs for code at 0x100, for a "valid" answer to a tampered signature and for no precompile, and names the
// RIP-7212 price of 3,450.
import { createClient, custom, encodeAbiParameters, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOnchainP256, P256_PRECOMPILE, TAMPERED_P256_VECTOR, VALID_P256_VECTOR } from "../../src/doctor/checks/onchain-p256";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain";
import { createHash, createPublicKey, verify } from "node:crypto";

/** What a scripted node answers: per vector, the words the probe returns; and the code at 0x100. */
interface ScriptedNode {
  readonly code?: Hex;
  readonly answer: (vector: Hex) => { returned: Hex; success?: boolean; gas: number };
}

/** A viem client of a node that answers eth_getCode and the probe's eth_call as scripted. */
function scriptedClient(node: ScriptedNode) {
  return createClient({
    transport: custom({
      request: async ({ method, params }: { method: string; params?: unknown }) => {
        if (method === "eth_chainId") return "0x2105";
        if (method === "eth_getCode") return node.code ?? "0x";
        if (method === "eth_call") {
          const data = (params as [{ data?: Hex; input?: Hex }])[0];
          const vector = `0x${(data.data ?? data.input)!.slice(-320)}` as Hex;
          const { returned, success = true, gas } = node.answer(vector);
          const size = (returned.length - 2) / 2;
          return encodeAbiParameters(
            [{ type: "bytes32" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
            [returned.padEnd(66, "0") as Hex, success ? 1n : 0n, BigInt(gas + 122), BigInt(size)],
          );
        }
        throw new Error(`unexpected ${method}`);
      },
    }),
  });
}

const ONE: Hex = `0x${"0".repeat(63)}1`;

describe("the vectors", () => {
  it("the valid vector verifies with node:crypto, the tampered one does not", () => {
    const bytes = Buffer.from(VALID_P256_VECTOR.slice(2), "hex");
    const key = createPublicKey({
      key: { kty: "EC", crv: "P-256", x: bytes.subarray(96, 128).toString("base64url"), y: bytes.subarray(128, 160).toString("base64url") },
      format: "jwk",
    });
    const message = Buffer.from("trustgate doctor: P-256 verification at 0x100");
    expect(createHash("sha256").update(message).digest().equals(bytes.subarray(0, 32))).toBe(true);
    expect(verify("sha256", message, { key, dsaEncoding: "ieee-p1363" }, bytes.subarray(32, 96))).toBe(true);
    expect(TAMPERED_P256_VECTOR).not.toBe(VALID_P256_VECTOR);
    expect(TAMPERED_P256_VECTOR.slice(66)).toBe(VALID_P256_VECTOR.slice(66));
  });
});

describe("onchain-p256 on Hardhat's network", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ hardhatConfig: "standalone" });
  });
  afterAll(async () => {
    await chain?.close();
  });

  it("holds: a precompile verifies the valid vector, refuses the tampered one, at EIP-7951's 6,900 gas", async () => {
    const client = createClient({ transport: custom(chain.provider) });
    const result = await checkOnchainP256(client);
    expect(result.status).toBe("holds");
    expect(result.summary).toContain("6,900 gas: EIP-7951 pricing, Base's since its Azul upgrade (2026-05-28)");
    expect(result.observed).toMatchObject({
      codeBytes: 0,
      valid: { valid: true, success: true, returnedBytes: 32 },
      tampered: { valid: false },
      price: { gas: 6_900 },
    });
    expect((result.observed as { valid: { gas: number } }).valid.gas).toBe(6_900);
  });

  it("differs when code sits at 0x100: the oracle would trust a contract", async () => {
    // Runtime code that returns the word 1 to anything.
    await chain.provider.request({ method: "hardhat_setCode", params: [P256_PRECOMPILE, "0x600160005260206000f3"] });
    try {
      const result = await checkOnchainP256(createClient({ transport: custom(chain.provider) }));
      expect(result.status).toBe("differs");
      expect(result.summary).toMatch(/^a contract \(10 bytes of code\), not a precompile, answers at 0x100/);
    } finally {
      await chain.provider.request({ method: "hardhat_setCode", params: [P256_PRECOMPILE, "0x"] });
    }
  });
});

describe("onchain-p256 against scripted nodes", () => {
  it("differs when 0x100 answers valid to a tampered signature", async () => {
    const result = await checkOnchainP256(scriptedClient({ answer: () => ({ returned: ONE, gas: 3_450 }) }));
    expect(result.status).toBe("differs");
    expect(result.summary).toContain('0x100 answers "valid" for a tampered P-256 signature');
  });

  it("differs when nothing at 0x100 verifies (an empty account: the call succeeds and returns nothing)", async () => {
    const result = await checkOnchainP256(scriptedClient({ answer: () => ({ returned: "0x", gas: 2_500 }) }));
    expect(result.status).toBe("differs");
    expect(result.summary).toMatch(/^no P-256 precompile at 0x100/);
    expect(result.observed).toMatchObject({ valid: { valid: false, returnedBytes: 0 }, price: null });
  });

  it("holds and names RIP-7212's 3,450 gas where that is the price", async () => {
    const result = await checkOnchainP256(
      scriptedClient({ answer: (vector) => ({ returned: vector === VALID_P256_VECTOR ? ONE : "0x", gas: 3_450 }) }),
    );
    expect(result.status).toBe("holds");
    expect(result.summary).toContain("3,450 gas: RIP-7212 pricing, Base's before Azul");
  });

  it("could not check without a chain, or when the node fails", async () => {
    expect(await checkOnchainP256(undefined)).toMatchObject({ status: "could-not-check", summary: "needs a chain: give --rpc" });
    const failing = createClient({
      transport: custom({
        request: async () => {
          throw new Error("node down");
        },
      }),
    });
    const result = await checkOnchainP256(failing);
    expect(result.status).toBe("could-not-check");
    expect(result.summary).toMatch(/^calling 0x100 failed: /);
  });
});

/**
 * `onchain-p256` (needs `--rpc`): what answers P-256 verification at `0x100` on the chain, since the attested oracle
 * trusts it (`TrustAttestationLib` asks `0x100` first and takes its "valid"). Two `eth_call`s of a small program
 * (run as creation code, so nothing is deployed) that calls `0x100` with a known-valid P-256 vector, then with the
 * same vector tampered, and measures the gas the call took; and `eth_getCode` of `0x100`. Holds when a precompile (no
 * code) answers "valid" for the valid vector and not for the tampered one, and says its price: 6,900 gas is EIP-7951's
 * (Base's since its Azul upgrade), 3,450 RIP-7212's (Base's before). Differs when code sits at `0x100` (a contract,
 * whose answers the oracle would trust), when the tampered vector is answered "valid" (forgeries would verify), or
 * when nothing there verifies the valid one (the oracle then verifies in Solidity, at far more gas). Could not check
 * without a chain or when the calls fail.
 *
 * @packageDocumentation
 */
import { getCode, call } from "viem/actions";
import { type Hex, hexToBigInt, size, slice } from "viem";
import { messageOf } from "../../errors.js";
import type { AnyClient } from "../../oracle/client.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";

/** The check's id. */
export const ONCHAIN_P256_CHECK = "onchain-p256";

/** The address of the P-256 verification precompile (RIP-7212, EIP-7951). */
export const P256_PRECOMPILE = "0x0000000000000000000000000000000000000100";

/**
 * A valid P-256 signature, as the precompile takes it: `sha256(message) ‖ r ‖ s ‖ x ‖ y` (message
 * `trustgate doctor: P-256 verification at 0x100`, signed with a key made for this check).
 */
export const VALID_P256_VECTOR: Hex = `0x${
  "45d703fcbe121283406e7dec51ea3e8b40b6c2c63df4bc51ff620696230035ba" +
  "4c48b95047f3d46a29fac98f0cd04ae41712cacc0c21f2c1d100e1681c0896b1" +
  "92528663d12609138ae956902c29b9b25224eb041899182746a2592f25309ab7" +
  "8641cb48b73e2d052817fb002897ca2ce018531a1256ffee88292dbc6c3789fb" +
  "351609ccb935065ae4b00681c5d34bffca2075e5b48db8beb8569e6fa434c8bc"
}`;

/** The same vector with the digest's last bit flipped: no P-256 verifier may answer "valid". */
export const TAMPERED_P256_VECTOR: Hex = `0x45d703fcbe121283406e7dec51ea3e8b40b6c2c63df4bc51ff620696230035bb${VALID_P256_VECTOR.slice(66)}`;

/**
 * The probe, run as creation code: copies the 160-byte vector appended to it into memory, `STATICCALL`s `0x100` with
 * all the gas there is, and returns four words: the first word `0x100` returned (zero when none), the call's
 * success, the gas from just before the call to just after it, and the size of what `0x100` returned.
 */
const PROBE_CODE: Hex = `0x${
  "60a0" + // PUSH1 160           size of the vector
  "61002a" + // PUSH2 42          where it starts in this code (after the 42 bytes of the program)
  "6000" + // PUSH1 0             memory offset
  "39" + // CODECOPY
  "5a" + // GAS                   gas before the call
  "6020" + // PUSH1 32            retSize
  "60a0" + // PUSH1 160           retOffset
  "60a0" + // PUSH1 160           argsSize
  "6000" + // PUSH1 0             argsOffset
  "610100" + // PUSH2 0x100       address
  "5a" + // GAS                   all of it
  "fa" + // STATICCALL            → success
  "5a" + // GAS                   gas after the call
  "90" + // SWAP1
  "60c0" + // PUSH1 0xc0
  "52" + // MSTORE                mem[0xc0] = success
  "90" + // SWAP1
  "03" + // SUB                   before − after
  "60e0" + // PUSH1 0xe0
  "52" + // MSTORE                mem[0xe0] = gas
  "3d" + // RETURNDATASIZE
  "610100" + // PUSH2 0x100
  "52" + // MSTORE                mem[0x100] = returned size
  "6080" + // PUSH1 128           size
  "60a0" + // PUSH1 0xa0          offset
  "f3" // RETURN
}`;

/**
 * Gas the probe counts besides what `0x100` itself charges when it is a precompile (warm, as precompiles are): the
 * pushes and `GAS` between the two readings, `STATICCALL`'s warm access (100) and one word of memory expansion.
 */
const PROBE_OVERHEAD_GAS = 122;

/** The prices of P-256 verification the check names. */
const KNOWN_PRICES: readonly { readonly gas: number; readonly name: string }[] = [
  { gas: 6_900, name: "EIP-7951 pricing, Base's since its Azul upgrade (2026-05-28)" },
  { gas: 3_450, name: "RIP-7212 pricing, Base's before Azul" },
];

/** What one call of the probe saw. */
export interface P256ProbeAnswer {
  /** Whether the `STATICCALL` succeeded. */
  readonly success: boolean;
  /** Whether `0x100` returned the 32-byte word 1 ("valid"). */
  readonly valid: boolean;
  /** The bytes `0x100` returned. */
  readonly returnedBytes: number;
  /** Gas of the call less the probe's own ({@link PROBE_OVERHEAD_GAS}): what `0x100` charged, when it is a precompile. */
  readonly gas: number;
}

/**
 * Runs the probe with a vector.
 *
 * @param client - The chain.
 * @param vector - `hash ‖ r ‖ s ‖ x ‖ y`, 160 bytes.
 * @returns What `0x100` answered.
 */
export async function probeP256(client: AnyClient, vector: Hex): Promise<P256ProbeAnswer> {
  const { data } = await call(client, { data: `${PROBE_CODE}${vector.slice(2)}` });
  if (data === undefined || size(data) !== 128)
    throw new Error(`the probe returned ${data === undefined ? "nothing" : `${size(data)} bytes`}, not 128`);
  const word = (i: number) => hexToBigInt(slice(data, 32 * i, 32 * (i + 1)));
  const returnedBytes = Number(word(3));
  return {
    valid: returnedBytes === 32 && word(0) === 1n,
    success: word(1) === 1n,
    returnedBytes,
    gas: Number(word(2)) - PROBE_OVERHEAD_GAS,
  };
}

/**
 * Runs the check.
 *
 * @param client - The chain (`--rpc`); `undefined` without one.
 * @returns The result.
 */
export async function checkOnchainP256(client: AnyClient | undefined): Promise<CheckResult> {
  if (client === undefined) return couldNotCheck(ONCHAIN_P256_CHECK, "needs a chain: give --rpc");
  let code: Hex | undefined;
  let valid: P256ProbeAnswer;
  let tampered: P256ProbeAnswer;
  try {
    code = await getCode(client, { address: P256_PRECOMPILE });
    valid = await probeP256(client, VALID_P256_VECTOR);
    tampered = await probeP256(client, TAMPERED_P256_VECTOR);
  } catch (error) {
    return couldNotCheck(ONCHAIN_P256_CHECK, `calling 0x100 failed: ${messageOf(error)}`);
  }
  const codeBytes = code === undefined ? 0 : size(code);
  const price = KNOWN_PRICES.find((p) => Math.abs(p.gas - valid.gas) <= 50);
  const observed = {
    address: P256_PRECOMPILE,
    codeBytes,
    valid,
    tampered,
    price: price ? { gas: price.gas, name: price.name } : null,
  };
  if (codeBytes > 0) {
    return differs(
      ONCHAIN_P256_CHECK,
      `a contract (${codeBytes} bytes of code), not a precompile, answers at 0x100: the attested oracle would trust its "valid"`,
      observed,
    );
  }
  if (tampered.valid) {
    return differs(
      ONCHAIN_P256_CHECK,
      `0x100 answers "valid" for a tampered P-256 signature: forgeries would verify on this chain`,
      observed,
    );
  }
  if (!valid.valid) {
    return differs(
      ONCHAIN_P256_CHECK,
      "no P-256 precompile at 0x100 (a valid signature is not answered valid): the attested oracle verifies in Solidity, at far more gas",
      observed,
    );
  }
  const cost = price ? `${price.gas.toLocaleString("en-US")} gas: ${price.name}` : `about ${valid.gas} gas, neither 6,900 nor 3,450`;
  return holds(
    ONCHAIN_P256_CHECK,
    `a precompile verifies P-256 at 0x100 (a valid vector verified, a tampered one refused; ${cost})`,
    observed,
  );
}

/**
 * The record of what was deployed where: `deployments/<chainId>.json`, one entry per contract, and the
 * fingerprint that makes a deployment idempotent.
 *
 * @packageDocumentation
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Address, concatHex, type Hash, type Hex, keccak256, stringToHex } from "viem";
import { z } from "zod";
import { DeploymentError } from "../errors.js";
import { hasAddressShape } from "../inputs/address.js";
import { prototypeKeyPaths } from "../util/json-keys.js";

/** A JSON value (constructor arguments are stored with bigints as decimal strings). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One deployed contract, as recorded in the deployments file. */
export interface DeploymentRecord {
  /** Contract name (`TrustScoreOracle`, `TrustAdmissionHook`…). */
  readonly name: string;
  /** Address of the contract. */
  readonly address: Address;
  /** Hash of the creation transaction. */
  readonly transactionHash: Hash;
  /** Block in which it was created. */
  readonly blockNumber: number;
  /** Constructor arguments, JSON-safe (bigints as decimal strings), in ABI order. */
  readonly constructorArgs: readonly JsonValue[];
  /** {@link deploymentFingerprint} of name, creation bytecode and encoded arguments. */
  readonly fingerprint: Hex;
  /** Git commit of the kit at deployment (`null` outside a git checkout); suffixed `-dirty` with local changes. */
  readonly gitCommit: string | null;
  /** When it was recorded, ISO 8601. */
  readonly deployedAt: string;
}

/** A deployment that a later one of the same contract replaced, as the deployments file's history keeps it. */
export interface ReplacedDeployment extends DeploymentRecord {
  /** The address of the deployment that replaced it. */
  readonly replacedBy: Address;
  /** When it was replaced, ISO 8601. */
  readonly replacedAt: string;
}

/** Content of `deployments/<chainId>.json`. */
export interface DeploymentsFile {
  /** The chain. */
  readonly chainId: number;
  /** Name of the configured network it was deployed with. */
  readonly network: string;
  /**
   * Hash of the chain's block 0 when it was written: another chain with the same id (a restarted local node)
   * has another, and its file is not trusted. Absent in files written before it was recorded.
   */
  readonly genesisHash?: Hash;
  /** The deployed contracts, by name. */
  readonly contracts: Readonly<Record<string, DeploymentRecord>>;
  /**
   * The deployments that later ones replaced (a changed configuration redeployed the contract), oldest first; their
   * contracts stay on the chain, and whatever still points at them (a gate, an integration) keeps using them. Absent
   * in files written before a contract was first replaced.
   */
  readonly history?: readonly ReplacedDeployment[];
}

/**
 * The fingerprint of a deployment: keccak256 of the contract name, its creation bytecode and its ABI-encoded
 * constructor arguments. Equal fingerprints mean the same contract would be created again.
 *
 * @param name - Contract name.
 * @param bytecode - Creation bytecode.
 * @param encodedArgs - ABI-encoded constructor arguments.
 * @returns The fingerprint.
 */
export function deploymentFingerprint(name: string, bytecode: Hex, encodedArgs: Hex): Hex {
  return keccak256(concatHex([keccak256(stringToHex(name)), keccak256(bytecode), keccak256(encodedArgs)]));
}

/**
 * Path of a chain's deployments file.
 *
 * @param dir - The deployments directory.
 * @param chainId - The chain.
 * @returns `<dir>/<chainId>.json`.
 */
export function deploymentsFilePath(dir: string, chainId: number): string {
  return join(dir, `${chainId}.json`);
}

/**
 * Reads a chain's deployments file; an empty record when there is none.
 *
 * @param dir - The deployments directory.
 * @param chainId - The chain.
 * @param network - Network name used for an empty record.
 * @returns The record.
 * @throws {@link DeploymentError} (`bad-config`) when the file exists but is not a deployments file of that chain, or
 *   one of its records lacks a field the deployment reads or holds one of the wrong type (named in the message).
 */
export function readDeploymentsFile(dir: string, chainId: number, network: string): DeploymentsFile {
  const path = deploymentsFilePath(dir, chainId);
  if (!existsSync(path)) return { chainId, network, contracts: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new DeploymentError("bad-config", `The deployments file ${path} is not valid JSON`, { cause });
  }
  const file = parsed as Partial<DeploymentsFile> | null;
  if (!file || typeof file !== "object" || file.chainId !== chainId || typeof file.contracts !== "object" || file.contracts === null) {
    throw new DeploymentError("bad-config", `The deployments file ${path} is not a deployments file of chain ${chainId}`);
  }
  // Every record is checked now: the deployment reads their addresses and hashes (a record without them made viem throw
  // later), and a `__proto__` entry would be dropped by the schema without a word.
  const prototypeKeys = prototypeKeyPaths(file);
  const checked = deploymentsFileSchema.safeParse(file);
  const issues = [
    ...prototypeKeys.map((key) => `${key}: "__proto__" is not accepted as a name`),
    ...(checked.success ? [] : checked.error.issues.map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`)),
  ];
  if (issues.length > 0 || !checked.success) {
    throw new DeploymentError("bad-config", `The deployments file ${path} is malformed`, {
      metaMessages: issues.slice(0, 10).map((issue) => `- ${issue}`),
    });
  }
  return {
    chainId,
    network: typeof file.network === "string" ? file.network : network,
    ...(typeof file.genesisHash === "string" ? { genesisHash: file.genesisHash } : {}),
    contracts: checked.data.contracts as DeploymentsFile["contracts"],
    ...(checked.data.history ? { history: checked.data.history as DeploymentsFile["history"] } : {}),
  };
}

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes as 0x-prefixed hex");

const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

/** One record of the deployments file: the fields the deployment reads are checked, any other is kept. */
const deploymentRecordSchema = z.looseObject({
  name: z.string(),
  address: z.string().refine(hasAddressShape, "must be a 0x-prefixed 20-byte hex address"),
  transactionHash: hex32,
  blockNumber: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  constructorArgs: z.array(jsonValueSchema),
  fingerprint: hex32,
  gitCommit: z.string().nullable(),
  deployedAt: z.string(),
});

/** One entry of the history: a record, and what replaced it when. */
const replacedDeploymentSchema = deploymentRecordSchema.extend({
  replacedBy: z.string().refine(hasAddressShape, "must be a 0x-prefixed 20-byte hex address"),
  replacedAt: z.string(),
});

const deploymentsFileSchema = z.object({
  genesisHash: hex32.optional(),
  contracts: z.record(z.string(), deploymentRecordSchema),
  history: z.array(replacedDeploymentSchema).optional(),
});

/**
 * Writes a chain's deployments file atomically (temporary file, then rename).
 *
 * @param dir - The deployments directory (created if missing).
 * @param file - The record.
 * @returns The path written.
 */
export function writeDeploymentsFile(dir: string, file: DeploymentsFile): string {
  const path = deploymentsFilePath(dir, file.chainId);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(temporary, path);
  return path;
}

/**
 * Writes a constructor-arguments module for `npx hardhat verify --constructor-args <file>`:
 * `<dir>/<chainId>/<name>.args.js`, a CommonJS module exporting the arguments.
 *
 * @param dir - The deployments directory.
 * @param chainId - The chain.
 * @param name - Contract name.
 * @param args - JSON-safe constructor arguments.
 * @returns The path written.
 */
export function writeConstructorArgsFile(dir: string, chainId: number, name: string, args: readonly JsonValue[]): string {
  const path = join(dir, String(chainId), `${name}.args.js`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `// Constructor arguments of ${name} on chain ${chainId}, for hardhat-verify's --constructor-args.\nmodule.exports = ${JSON.stringify(args, null, 2)};\n`,
  );
  return path;
}

/**
 * Makes a value JSON-safe: bigints become decimal strings, recursively.
 *
 * @param value - A constructor argument.
 * @returns The JSON-safe value.
 */
export function toJsonSafe(value: unknown): JsonValue {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSafe(v)]));
  }
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null) return value;
  throw new DeploymentError("failed", `Cannot record a constructor argument of type ${typeof value}`);
}

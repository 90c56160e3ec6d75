/**
 * Per-network deployment configuration (`deploy/config.json`): which oracle and identity registry the gates
 * read, the agent domain, the gate policy, which example contracts to deploy, and optionally an
 * `AttestedTrustOracle` (its upstream, admin and the JWKS whose keys it gets) that the gates can read instead.
 * A configuration whose policy contradicts what one of its contracts requires is refused when it is loaded
 * (`gate-requirements.ts`).
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DeploymentError } from "../errors.js";
import { hasAddressShape } from "../inputs/address.js";
import { prototypeKeyPaths } from "../util/json-keys.js";
import { DEPLOYABLE_CONTRACTS, deployPolicySchema } from "./deployable-contracts.js";
import { gatePolicyConflicts } from "./gate-requirements.js";
import { JWK_THUMBPRINT_PATTERN, keySelectionProblems } from "./key-selection.js";

const address = z.string().refine(hasAddressShape, "must be a 0x-prefixed 20-byte hex address");

/**
 * The optional `AttestedTrustOracle` of a network (`attestedOracle` in `deploy/config.json`): an oracle fed by the
 * service's signed attestations that falls back on `upstream`.
 */
const attestedOracleSchema = z.strictObject({
  /**
   * What the attested oracle falls back on: `"oracle"` (default) the network's `oracle` (the configured address,
   * or the reference oracle deployed in the same run), `"none"` no upstream (zero address), or an address.
   */
  upstream: z.union([z.literal("oracle"), z.literal("none"), address]).default("oracle"),
  /** Holder of `DEFAULT_ADMIN_ROLE` (signing keys, chain slugs); `null` = the network's `owner`, else the deployer. */
  admin: address.nullable().default(null),
  /** JWKS whose keys are installed in the same run (an http(s) URL or a file path), or `null` for none. */
  jwks: z.string().min(1).nullable().default(null),
  /**
   * Key ids of the JWKS to install, each an on-chain trust kid (`ONCHAIN_TRUST_ATTESTATION_KIDS`) unless also in
   * `forceKids` (default: the on-chain trust kids the JWKS publishes).
   */
  kids: z.array(z.string().min(1)).min(1).optional(),
  /** Key ids installed although they are not on-chain trust kids (the service's next trust kid), each with a warning. */
  forceKids: z.array(z.string().min(1)).min(1).optional(),
  /**
   * The read policy: absent (default) deploys `AttestedTrustOracle`, whose reads answer the fresher of its own record
   * and the upstream's; a number of seconds (1 to 2^40 - 1) deploys `HeldFirstAttestedTrustOracle` with that max age,
   * whose reads answer a record it holds alone, without asking the upstream, while the record is at most that old
   * (cheaper reads; a fresher upstream record is shadowed until the next push: run `trustgate refresh`).
   */
  heldFirstRecordMaxAge: z
    .number()
    .int()
    .min(1)
    .max(2 ** 40 - 1)
    .optional(),
  /** Expected RFC 7638 JWK thumbprint (base64url SHA-256) of each kid to install; a JWKS key that differs is refused. */
  thumbprints: z
    .record(z.string().min(1), z.string().regex(JWK_THUMBPRINT_PATTERN, "must be a base64url SHA-256 JWK thumbprint (43 characters)"))
    .optional(),
});

/** The `attestedOracle` entry of a network. */
export type AttestedOracleDeployConfig = z.output<typeof attestedOracleSchema>;

/**
 * The `identityRegistry` value that deploys the kit's `MockIdentityRegistry` (an ERC-8004-shaped registry anyone can
 * register agents in) in the same run, so that a local network's gates can check controllers. Local networks only.
 */
export const DEPLOY_MOCK_REGISTRY = "deploy-mock";

/** Which oracle the gates read: the network's `oracle`, or the `AttestedTrustOracle` of the same deployment. */
export const GATE_ORACLES = ["oracle", "attested"] as const;

const networkSchema = z
  .strictObject({
    chainId: z.number().int().positive(),
    local: z.boolean().default(false),
    rpcUrl: z.string().url().optional(),
    rpcUrlEnv: z.string().min(1).optional(),
    oracle: z.union([z.literal("deploy-reference"), address]),
    identityRegistry: z.union([z.literal(DEPLOY_MOCK_REGISTRY), address]).nullable(),
    agentChainId: z.number().int().positive(),
    agentRegistry: z.string().min(1).max(31),
    owner: address.nullable().default(null),
    policy: deployPolicySchema,
    contracts: z.array(z.enum(DEPLOYABLE_CONTRACTS)),
    attestedOracle: attestedOracleSchema.optional(),
    gateOracle: z.enum(GATE_ORACLES).default("oracle"),
  })
  .superRefine((network, ctx) => {
    if (network.contracts.length === 0 && !network.attestedOracle) {
      ctx.addIssue({ code: "custom", path: ["contracts"], message: "nothing to deploy: list a contract, or configure attestedOracle" });
    }
    if (network.gateOracle === "attested" && !network.attestedOracle) {
      ctx.addIssue({ code: "custom", path: ["gateOracle"], message: '"attested" needs an attestedOracle entry' });
    }
    for (const field of ["kids", "forceKids", "thumbprints"] as const) {
      if (network.attestedOracle?.[field] && network.attestedOracle.jwks === null) {
        ctx.addIssue({ code: "custom", path: ["attestedOracle", field], message: `${field} needs attestedOracle.jwks` });
      }
    }
    for (const problem of network.attestedOracle ? keySelectionProblems(network.attestedOracle) : []) {
      ctx.addIssue({ code: "custom", path: ["attestedOracle"], message: problem });
    }
    if (network.contracts.includes("AgentTaskBoard") && !network.contracts.includes("TrustAdmissionHook")) {
      ctx.addIssue({ code: "custom", path: ["contracts"], message: "AgentTaskBoard needs TrustAdmissionHook (its admission hook)" });
    }
    if (network.policy.requireController && network.identityRegistry === null) {
      ctx.addIssue({ code: "custom", path: ["identityRegistry"], message: "policy.requireController needs an identity registry" });
    }
    if (network.identityRegistry === DEPLOY_MOCK_REGISTRY && !network.local) {
      ctx.addIssue({
        code: "custom",
        path: ["identityRegistry"],
        message: `"${DEPLOY_MOCK_REGISTRY}" is for local networks only (anyone can register and control agents in the mock registry)`,
      });
    }
  });

/** Configuration of one network. */
export type NetworkDeployConfig = z.output<typeof networkSchema>;

export { DEPLOYABLE_CONTRACTS, type DeployableContract, type DeployPolicy } from "./deployable-contracts.js";

const configSchema = z
  .strictObject({
    $comment: z.string().optional(),
    networks: z.record(z.string(), networkSchema),
  })
  .superRefine((config, ctx) => {
    for (const [name, network] of Object.entries(config.networks)) {
      for (const conflict of gatePolicyConflicts(name, network)) {
        ctx.addIssue({ code: "custom", path: ["networks", name, ...conflict.setting.split(".")], message: conflict.message });
      }
    }
  });

/** The whole deployment configuration: one entry per network name. */
export type DeployConfig = z.output<typeof configSchema>;

/**
 * Validates a deployment configuration.
 *
 * @param value - Parsed JSON.
 * @param source - Where it came from, for the message.
 * @returns The configuration, with defaults filled in.
 * @throws {@link DeploymentError} (`bad-config`) listing every problem, among them a contract whose policy
 *   contradicts its requirements (named with its network and setting; see `gatePolicyConflicts`), and a `__proto__`
 *   key anywhere.
 */
export function parseDeployConfig(value: unknown, source = "deployment configuration"): DeployConfig {
  // zod drops a `__proto__` key without a word: a network so named would be ignored, never validated.
  const prototypeKeys = prototypeKeyPaths(value);
  if (prototypeKeys.length > 0) {
    throw new DeploymentError("bad-config", `Invalid ${source}`, {
      metaMessages: prototypeKeys.map((path) => `- ${path}: "__proto__" is not accepted as a name`),
    });
  }
  const result = configSchema.safeParse(value);
  if (!result.success) {
    throw new DeploymentError("bad-config", `Invalid ${source}`, {
      metaMessages: result.error.issues.map((issue) => `- ${issue.path.join(".") || "(root)"}: ${issue.message}`),
    });
  }
  return result.data;
}

/**
 * Reads and validates a deployment configuration file.
 *
 * @param path - The JSON file (for example `deploy/config.json`).
 * @returns The configuration.
 * @throws {@link DeploymentError} (`bad-config`) when it cannot be read, is not JSON or is invalid.
 */
export function loadDeployConfig(path: string): DeployConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new DeploymentError("bad-config", `Cannot read the deployment configuration ${path}`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DeploymentError("bad-config", `The deployment configuration ${path} is not valid JSON`, { cause });
  }
  return parseDeployConfig(json, `deployment configuration ${path}`);
}

/**
 * The configuration of one network.
 *
 * @param config - The whole configuration.
 * @param network - The network name (`hardhat`, `localhost`, `baseSepolia`, `base`).
 * @returns Its entry.
 * @throws {@link DeploymentError} (`bad-config`) naming the known networks when it has none.
 */
export function networkConfig(config: DeployConfig, network: string): NetworkDeployConfig {
  // Own entries only: `--network toString` (or constructor, __proto__…) must not find Object.prototype's members.
  const entry = Object.hasOwn(config.networks, network) ? config.networks[network] : undefined;
  if (!entry) {
    throw new DeploymentError("bad-config", `No deployment configuration for network "${network}"`, {
      metaMessages: [`Configured networks: ${Object.keys(config.networks).join(", ")}`],
    });
  }
  return entry;
}

/**
 * The contracts the deployment can deploy besides the oracles, and the gate policy they are deployed with: the
 * shapes both the configuration (`config.ts`) and the contracts' policy requirements (`gate-requirements.ts`) are
 * written in.
 *
 * @packageDocumentation
 */
import { z } from "zod";

/** Contracts the deployment knows how to deploy, in dependency order. */
export const DEPLOYABLE_CONTRACTS = ["TrustAdmissionHook", "AgentTaskBoard", "TrustGatedEscrow"] as const;

/** A contract the deployment can deploy besides the reference oracle. */
export type DeployableContract = (typeof DEPLOYABLE_CONTRACTS)[number];

/** The gate policy (`TrustPolicy`) of a network in the deployment configuration. */
export const deployPolicySchema = z.strictObject({
  minScore: z.number().int().min(0).max(100),
  maxSybilSeverity: z.number().int().min(0).max(4),
  maxAge: z
    .number()
    .int()
    .min(1)
    .max(2 ** 32 - 1),
  requireController: z.boolean(),
});

/** The gate policy (`TrustPolicy`) of a network. */
export type DeployPolicy = z.output<typeof deployPolicySchema>;

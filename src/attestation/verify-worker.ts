/**
 * The worker thread of {@link startVerifierPool} (`verifier-pool.ts`): says it is ready, then answers each
 * message, a batch of {@link VerifyJob}s, with one message of their verdicts (`runVerifyJob`, which runs
 * `verifyTrustAttestation`).
 *
 * @packageDocumentation
 */
import { parentPort } from "node:worker_threads";
import { runVerifyJob, type VerifyJob } from "./verifier-pool.js";

if (parentPort) {
  const port = parentPort;
  port.on("message", (jobs: VerifyJob[]) => {
    void Promise.all(jobs.map(runVerifyJob)).then((answers) => port.postMessage(answers));
  });
  port.postMessage({ type: "ready" });
}

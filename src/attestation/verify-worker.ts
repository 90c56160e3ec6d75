/**
 * The worker thread of {@link startVerifierPool} (`verifier-pool.ts`): says it is ready, then answers each
 * {@link VerifyJob} with the verdict of `verifyTrustAttestation` (`runVerifyJob`).
 *
 * @packageDocumentation
 */
import { parentPort } from "node:worker_threads";
import { runVerifyJob, type VerifyJob } from "./verifier-pool.js";

if (parentPort) {
  const port = parentPort;
  port.on("message", (job: VerifyJob) => {
    void runVerifyJob(job).then((answer) => port.postMessage(answer));
  });
  port.postMessage({ type: "ready" });
}

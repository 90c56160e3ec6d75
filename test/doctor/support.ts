// Helpers of the doctor's tests: the kit's local signing service started with deviations, the doctor run against it
// with the harness's local chain for `onchain-submit`, and the assertion that exactly the expected checks differ.
import { expect } from "vitest";
import type { CheckId, CheckStatus, DoctorReport } from "../../src/doctor/report";
import { type DoctorConfig, type DoctorDependencies, runDoctor } from "../../src/doctor/run";
import { startSubmissionSimulator } from "../../src/harness/devnet/submission-simulator";
import { createPopulation, type Population, startTrustService, type TrustServiceParameters } from "../../src/harness/service/index";

/** The MCP server every run asks about (the local service scans any). */
export const MCP_SERVER = "acme/ledger-tools";

/** A small population scored at `at`, by default an hour ago (its attestations are then fresh for the local chain). */
export function recentPopulation(at: Date = new Date(Date.now() - 3_600_000)): Population {
  return createPopulation({ seed: 11, size: 40, chains: ["base", "ethereum"], registries: ["erc8004"], at });
}

/**
 * Starts the local service with `options`, runs `prepare` (given its URL), runs the doctor against it (the
 * harness's local chain for `onchain-submit`), stops the service.
 */
export async function doctorAgainst(
  options: TrustServiceParameters = {},
  config: Partial<DoctorConfig> = {},
  deps: DoctorDependencies = {},
  prepare?: (serviceUrl: string) => Promise<void>,
): Promise<DoctorReport> {
  const service = await startTrustService({ population: recentPopulation(), ...options });
  try {
    await prepare?.(service.url);
    return await runDoctor(
      { apiUrl: service.url, mcpServer: MCP_SERVER, ...config },
      { submissionSimulator: { start: startSubmissionSimulator }, ...deps },
    );
  } finally {
    await service.close();
  }
}

/** The status of each check, by id. */
export function statuses(report: DoctorReport): Record<string, CheckStatus> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
}

/**
 * Asserts that the checks named differ, those named could not be checked (each with a reason), and every other
 * check holds.
 */
export function expectOnly(report: DoctorReport, expected: { differs?: readonly CheckId[]; couldNotCheck?: readonly CheckId[] }): void {
  const want: Record<string, CheckStatus> = {};
  for (const check of report.checks) want[check.id] = "holds";
  for (const id of expected.differs ?? []) want[id] = "differs";
  for (const id of expected.couldNotCheck ?? []) want[id] = "could-not-check";
  const summaries = report.checks.filter((c) => c.status !== want[c.id]).map((c) => `${c.id}: ${c.status}: ${c.summary}`);
  expect(statuses(report), summaries.join("\n")).toEqual(want);
  for (const check of report.checks) expect(check.summary.length, check.id).toBeGreaterThan(0);
}

/** The summary line of a check. */
export function summaryOf(report: DoctorReport, id: CheckId): string {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id}`);
  return check.summary;
}

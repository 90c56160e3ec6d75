/**
 * `npm run bench`: measures and prints the kit's figures side by side (gas of gated calls against the
 * `meetsThreshold`-only baseline, gas per published record). Figures, not assertions: targets are shown next
 * to the measured values, and the run never fails because a target is missed.
 */
import { measureGateGas, measurePublishGas } from "./bench/gas";

const GATE_RATIO_TARGET = 1.1;
const PUBLISH_TARGETS = { updated: 10_000, new: 30_000, batch: 500 };

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((v, c) => (c === 0 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

const fmt = (n: number) => n.toLocaleString("en-US");

async function main(): Promise<void> {
  console.log("trustgate benchmark — Hardhat network (in-process EDR), solc 0.8.28, optimizer 10,000 runs\n");

  const gate = await measureGateGas();
  const baseline = gate[0]!.gas;
  console.log("Gas of one gated call (steady state, whole transaction)");
  console.log(
    table(
      ["gate", "gas", "× baseline"],
      gate.map((r) => [r.name, fmt(r.gas), (r.gas / baseline).toFixed(3)]),
    ),
  );
  const ratio = gate[1]!.gas / baseline;
  console.log(
    `target: all checks without the controller check ≤ ${GATE_RATIO_TARGET.toFixed(2)}× baseline → ${ratio.toFixed(3)}× ${ratio <= GATE_RATIO_TARGET ? "(met)" : "(MISSED)"}\n`,
  );

  const publish = await measurePublishGas([1, 100, PUBLISH_TARGETS.batch]);
  console.log("Gas of TrustScoreOracle.publish (whole transaction, per record = total / batch size)");
  console.log(
    table(
      ["batch", "new: total", "new: per record", "updated: total", "updated: per record", "updated ÷ new"],
      publish.map((r) => [
        r.batch,
        fmt(r.newTotal),
        fmt(Math.round(r.newTotal / r.batch)),
        fmt(r.updatedTotal),
        fmt(Math.round(r.updatedTotal / r.batch)),
        (r.updatedTotal / r.newTotal).toFixed(3),
      ]),
    ),
  );
  const big = publish.find((r) => r.batch === PUBLISH_TARGETS.batch)!;
  const perNew = big.newTotal / big.batch;
  const perUpdated = big.updatedTotal / big.batch;
  console.log(
    `target (batch of ${PUBLISH_TARGETS.batch}): ≤ ${fmt(PUBLISH_TARGETS.new)} per new record → ${fmt(Math.round(perNew))} ${perNew <= PUBLISH_TARGETS.new ? "(met)" : "(MISSED)"}; ` +
      `≤ ${fmt(PUBLISH_TARGETS.updated)} per updated record → ${fmt(Math.round(perUpdated))} ${perUpdated <= PUBLISH_TARGETS.updated ? "(met)" : "(MISSED)"}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

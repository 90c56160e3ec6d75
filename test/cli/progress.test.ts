import { describe, expect, it } from "vitest";
import { createEtaEstimator, createProgressBar, formatEta, renderProgress, shouldShowProgress } from "../../src/cli/progress";

function capture() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) } };
}

describe("shouldShowProgress", () => {
  const person = { isTTY: true, ci: false, jsonToStdout: false, quiet: false };

  it("draws for a person at a terminal", () => {
    expect(shouldShowProgress(person)).toBe(true);
  });

  it.each([
    ["stderr is not a terminal", { isTTY: false }],
    ["CI is set", { ci: true }],
    ["the JSON goes to stdout", { jsonToStdout: true }],
    ["--quiet", { quiet: true }],
  ])("stays silent when %s", (_, change) => {
    expect(shouldShowProgress({ ...person, ...change })).toBe(false);
  });
});

describe("renderProgress", () => {
  it("shows the stage, a bar, done/total and the percentage", () => {
    expect(renderProgress({ stage: "attestations", done: 412, total: 1000 }, 10)).toBe("fetching attestations [████░░░░░░] 412/1000  41%");
    expect(renderProgress({ stage: "onchain", done: 0, total: 0 }, 4)).toBe("reading the oracle [████] 0/0 100%");
    expect(renderProgress({ stage: "listing", done: 5, total: 5 }, 4)).toBe("listing agents [████] 5/5 100%");
  });

  it("adds the time left when it is known", () => {
    expect(renderProgress({ stage: "attestations", done: 412, total: 1000 }, 10, 200)).toBe(
      "fetching attestations [████░░░░░░] 412/1000  41%  ETA 3m 20s",
    );
    expect(formatEta(0.4)).toBe("ETA <1s");
    expect(formatEta(84_020)).toBe("ETA 23h 20m");
  });
});

describe("createEtaEstimator (a fake clock)", () => {
  it("estimates from the progress observed once enough samples span enough time, and not before", () => {
    const eta = createEtaEstimator({ minSamples: 5, minSpanMs: 3_000 });
    // 30 requests a minute: one every 2 s.
    const estimates = [0, 1, 2, 3, 4, 5].map((done) => eta.sample(done, 600, done * 2_000));
    expect(estimates.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    // 5 done of 600 at one per 2 s: 595 × 2 s left.
    expect(estimates[5]).toBeCloseTo(1_190, 6);
  });

  it("follows the rate observed, not a burst at the start, once the burst leaves the window", () => {
    const eta = createEtaEstimator({ windowMs: 60_000 });
    let at = 0;
    // A burst of 30 at once (a fresh rate-limit window), then one every 2 s.
    for (let done = 1; done <= 30; done++) eta.sample(done, 600, (at += 10));
    let last: number | undefined;
    for (let done = 31; done <= 120; done++) last = eta.sample(done, 600, (at += 2_000));
    expect(last).toBeCloseTo(480 * 2, 0);
  });

  it("gives nothing while nothing moves or when everything is done", () => {
    const stalled = createEtaEstimator({ minSamples: 2, minSpanMs: 0, sampleIntervalMs: 0 });
    expect(stalled.sample(3, 10, 0)).toBeUndefined();
    expect(stalled.sample(3, 10, 5_000)).toBeUndefined();
    const done = createEtaEstimator({ minSamples: 2, minSpanMs: 0, sampleIntervalMs: 0 });
    done.sample(0, 2, 0);
    expect(done.sample(2, 2, 1_000)).toBeUndefined();
  });

  it("records at most one sample per interval, so that fast progress does not pile up samples", () => {
    const eta = createEtaEstimator({ minSamples: 3, minSpanMs: 0, sampleIntervalMs: 250 });
    for (let i = 0; i < 100; i++) expect(eta.sample(i, 1_000, i)).toBeUndefined(); // 100 steps within 100 ms: one sample
    expect(eta.sample(100, 1_000, 250)).toBeUndefined(); // two samples
    // Three samples: 300 steps in 500 ms.
    expect(eta.sample(300, 1_000, 500)).toBeCloseTo((700 * 0.5) / 300, 6);
  });
});

describe("createProgressBar", () => {
  it("writes nothing when disabled", () => {
    const { chunks, stream } = capture();
    const bar = createProgressBar({ stream, enabled: false });
    bar.update({ stage: "onchain", done: 1, total: 2 });
    bar.finish();
    expect(chunks).toEqual([]);
  });

  it("redraws in place at most once per interval within a stage, and at once on a new stage", () => {
    const { chunks, stream } = capture();
    let now = 0;
    const bar = createProgressBar({ stream, enabled: true, clock: () => now, barWidth: 4 });
    for (let done = 1; done <= 100; done++) bar.update({ stage: "attestations", done, total: 1000 });
    expect(chunks).toHaveLength(1);
    now = 99;
    bar.update({ stage: "attestations", done: 101, total: 1000 });
    expect(chunks).toHaveLength(1);
    now = 100;
    bar.update({ stage: "attestations", done: 102, total: 1000 });
    expect(chunks).toHaveLength(2);
    bar.update({ stage: "listing", done: 0, total: 3 });
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toBe("\rfetching attestations [░░░░] 1/1000   0%\x1b[K");
    expect(chunks[1]?.startsWith("\r")).toBe(true);
    expect(chunks[1]?.endsWith(" 102/1000  10%\x1b[K")).toBe(true);
    expect(chunks.every((c) => c.startsWith("\r") && !c.includes("\n"))).toBe(true);
  });

  it("shows the time left at the rate observed once enough progress was seen", () => {
    const { chunks, stream } = capture();
    let now = 0;
    const bar = createProgressBar({ stream, enabled: true, clock: () => now, barWidth: 4 });
    for (let done = 0; done <= 10; done++) {
      now = done * 1_000;
      bar.update({ stage: "attestations", done, total: 100 });
    }
    expect(chunks[0]).toBe("\rfetching attestations [░░░░] 0/100   0%\x1b[K");
    expect(chunks.at(-1)).toBe("\rfetching attestations [░░░░] 10/100  10%  ETA 1m 30s\x1b[K");
    // A new stage starts its own estimate.
    bar.update({ stage: "onchain", done: 0, total: 5 });
    expect(chunks.at(-1)).not.toContain("ETA");
  });

  it("clears the line at the end, once, and only if it drew", () => {
    const silent = capture();
    createProgressBar({ stream: silent.stream, enabled: true }).finish();
    expect(silent.chunks).toEqual([]);

    const { chunks, stream } = capture();
    const bar = createProgressBar({ stream, enabled: true, clock: () => 0 });
    bar.update({ stage: "onchain", done: 0, total: 5 });
    bar.finish();
    bar.finish();
    expect(chunks.slice(1)).toEqual(["\r\x1b[K"]);
  });
});

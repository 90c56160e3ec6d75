import { describe, expect, it } from "vitest";
import { createProgressBar, renderProgress, shouldShowProgress } from "../../src/cli/progress";

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

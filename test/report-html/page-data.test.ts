/**
 * The HTML page's data: each row's tuple carries the report's values in `PAGE_COLUMNS` order, outside text is made
 * printable with its URLs redacted, the head carries the report's verdict and counts, and the JSON embedded in a
 * `<script>` element cannot end it.
 */
import { describe, expect, test } from "vitest";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES, type DriftStatus } from "../../src/drift/types.js";
import { verdictOf } from "../../src/drift/verdict.js";
import { PAGE_COLUMNS, pageHead, pageRow } from "../../src/report-html/page-data.js";
import { pageRowText } from "../../src/report-html/page-rows.js";
import { pageTitle } from "../../src/report-html/page-template.js";
import { scriptJson } from "../../src/report-html/script-json.js";
import { errorRow, failToPass, invalid, passToFail, report, row } from "../cli/report-fixture.js";

const column = (name: (typeof PAGE_COLUMNS)[number]) => PAGE_COLUMNS.indexOf(name);

describe("pageRow", () => {
  test("carries each column of the row, times as Unix seconds and the status as its index", () => {
    const tuple = pageRow(row({ agentId: "7", attestedComputedAt: "2026-11-22T11:00:00.000Z" }));
    expect(tuple).toHaveLength(PAGE_COLUMNS.length);
    expect(tuple[column("chain")]).toBe("base");
    expect(tuple[column("agentId")]).toBe("7");
    expect(tuple[column("registry")]).toBe("erc8004");
    expect(DRIFT_STATUSES[tuple[column("status")] as number]).toBe("in-sync");
    expect(tuple[column("onchainScore")]).toBe(60);
    expect(tuple[column("onchainTier")]).toBe("developing");
    expect(tuple[column("onchainUpdatedAt")]).toBe(Date.parse("2026-11-22T03:00:00.000Z") / 1000);
    expect(tuple[column("attestedIssuedAt")]).toBe(Date.parse("2026-11-22T11:00:00.000Z") / 1000);
    expect(tuple[column("scoreDelta")]).toBe(0);
    expect(tuple[column("flip")]).toBe(0);
    expect(tuple[column("reason")]).toBeNull();
  });

  test("tells the direction of a flip, and null for a missing side", () => {
    expect(pageRow(passToFail("1"))[column("flip")]).toBe(1);
    expect(pageRow(failToPass("2"))[column("flip")]).toBe(2);
    const missing = pageRow(errorRow("3"));
    expect(missing[column("onchainScore")]).toBeNull();
    expect(missing[column("onchainTier")]).toBeNull();
    expect(missing[column("attestedScore")]).toBeNull();
    expect(DRIFT_STATUSES[missing[column("status")] as number]).toBe("error");
  });

  test("makes outside text printable and redacts the URLs in it", () => {
    const tuple = pageRow(
      errorRow("4", "failed at https://user:hunter2@rpc.example/v2/sk_live_SECRET123?apikey=SECRET456 \u001b[31mred\u202e"),
    );
    const reason = tuple[column("reason")] as string;
    expect(reason).not.toMatch(/hunter2|SECRET123|SECRET456/);
    // eslint-disable-next-line no-control-regex
    expect(reason).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(reason).toContain("rpc.example");
  });
});

describe("pageHead", () => {
  test("carries the verdict, the counts, the flips, the --max-errors state and the rule's threshold", () => {
    const r = report([passToFail("1"), failToPass("2"), invalid("3"), row({ agentId: "4" })]);
    const { agents: _agents, ...head } = r;
    const page = pageHead(head);
    expect(page.verdict).toEqual(verdictOf(r));
    expect(page.verdict.exitCode).toBe(3);
    expect(page.byStatus).toEqual(r.summary.byStatus);
    expect(page.flips).toEqual({ passToFail: 1, failToPass: 1 });
    expect(page.unverified).toMatchObject({ count: 0, exceeded: false });
    expect(page.threshold).toBe(51);
    expect(page.columns).toEqual(PAGE_COLUMNS);
    expect(page.history).toEqual([]);
  });

  test("defines each status it shows, with the meanings --help and the Markdown give", () => {
    const { agents: _agents, ...head } = report([row({ agentId: "1" })]);
    const page = pageHead(head);
    for (const status of page.statuses) expect(page.statusMeanings[status], status).toBe(DRIFT_STATUS_MEANINGS[status]);
    expect(Object.keys(page.statusMeanings).sort()).toEqual([...page.statuses].sort());
  });

  test("gives every status a colour of its own, none of them the neutral one, and the kit's tiers lowest first", () => {
    const { agents: _agents, ...head } = report([row({ agentId: "1" })]);
    const page = pageHead(head);
    const colours = page.statuses.map((status) => page.statusColours[status]);
    expect(colours.every((colour) => /^#[0-9a-f]{6}$/.test(colour))).toBe(true);
    expect(new Set(colours).size).toBe(page.statuses.length);
    expect(colours).not.toContain(page.neutralColour);
    expect(page.tiers).toEqual(["flagged", "limited", "developing", "established"]);
  });

  test("carries the state's night history when the report has it", () => {
    const { agents: _agents, ...head } = report([row({ agentId: "1" })]);
    const night = {
      startedAt: "2026-11-21T02:00:00.000Z",
      finishedAt: "2026-11-21T02:10:00.000Z",
      exitCode: 0 as const,
      statuses: { ...Object.fromEntries(DRIFT_STATUSES.map((status) => [status, 0])), "in-sync": 1 } as Record<DriftStatus, number>,
      flips: { passToFail: 0, failToPass: 0 },
      signedFetches: 4,
    };
    expect(pageHead({ ...head, state: { history: [night] } }).history).toEqual([night]);
  });
});

describe("pageTitle", () => {
  const titleOf = (rows: Parameters<typeof report>[0]) => {
    const { agents: _agents, ...head } = report(rows);
    return pageTitle(pageHead(head));
  };

  test("names the verdict's exit code, its name and the night, to the minute in UTC", () => {
    expect(titleOf([row({ agentId: "1" })])).toBe("exit 0 ok · 2026-11-22 12:00 UTC · trustgate drift report");
    expect(titleOf([passToFail("1"), row({ agentId: "2" })])).toBe("exit 3 drift · 2026-11-22 12:00 UTC · trustgate drift report");
    expect(titleOf([errorRow("1")])).toBe("exit 4 unverified · 2026-11-22 12:00 UTC · trustgate drift report");
  });
});

describe("scriptJson", () => {
  const hostile = ["</script><script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<!-- a & b -->", "line\u2028sep\u2029"];

  test("writes no character that could end the element or open markup, and reads back the same value", () => {
    const text = scriptJson({ names: hostile });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ names: hostile });
  });

  test("a hostile agent name in a row's text stays inside the data", () => {
    const text = pageRowText(row({ agentId: "9", chain: hostile[0]!, registry: hostile[1]! }));
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)[column("chain")]).toBe(hostile[0]);
    expect(JSON.parse(text)[column("registry")]).toBe(hostile[1]);
  });
});

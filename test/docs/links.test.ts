// The documentation as a whole: the README stays a front page (at most 250 lines), every relative link of the
// documents reaches a file and, when it names one, a heading of that file (as GitHub renders its anchors), and no
// document points at a text outside the repository or names a tracker's issue.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENTS, REPOSITORY_ROOT } from "../support/doc-blocks";
import { docAnchors, docRelativeLinks, headingAnchor } from "../support/doc-links";

const README_MAX_LINES = 250;

/** Why a relative link does not resolve, or undefined when it does. */
function brokenBecause(file: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#", 2);
  const resolved = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
  const absolute = join(REPOSITORY_ROOT, resolved);
  if (!existsSync(absolute)) return `no file ${resolved}`;
  if (anchor === undefined || anchor === "") return undefined;
  if (!resolved.endsWith(".md") || statSync(absolute).isDirectory()) return `an anchor into ${resolved}, which is not a document`;
  return docAnchors(resolved).has(anchor) ? undefined : `no heading #${anchor} in ${resolved}`;
}

describe("the documentation", () => {
  it("has a README of at most 250 lines", () => {
    const lines = readFileSync(join(REPOSITORY_ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("has the manual's pages, and the front page links to each", () => {
    const pages = ["contracts", "sdk", "drift", "testing", "deployment", "security", "onchain-attestations", "service-api", "doctor"];
    for (const page of pages) expect(DOCUMENTS).toContain(`docs/${page}.md`);
    const linked = new Set(docRelativeLinks("README.md").map((link) => link.target.split("#")[0]));
    for (const page of [...pages, "benchmarks"]) expect(linked, `README.md links to docs/${page}.md`).toContain(`docs/${page}.md`);
  });

  it("has relative links that reach a file and, when one is named, a heading of it", () => {
    const links = DOCUMENTS.flatMap(docRelativeLinks);
    expect(links.length).toBeGreaterThan(20);
    const broken = links.flatMap((link) => {
      const reason = brokenBecause(link.file, link.target);
      return reason === undefined ? [] : [`${link.file}:${link.line}: (${link.target}) ${reason}`];
    });
    expect(broken).toEqual([]);
  });

  it("shows the drift report's screenshot on the front page: an image link the check follows, to a PNG under 300 KB", () => {
    const screenshot = "docs/images/drift-report.png";
    const image = docRelativeLinks("README.md").find((link) => link.target === screenshot);
    expect(image, "README.md shows ![…](docs/images/drift-report.png)").toBeDefined();
    expect(readFileSync(join(REPOSITORY_ROOT, "README.md"), "utf8").split("\n")[image!.line - 1]).toMatch(/^!\[[^\]]+\]\(/);
    expect(brokenBecause("README.md", screenshot)).toBeUndefined();
    expect(brokenBecause("README.md", "docs/images/absent.png")).toBe("no file docs/images/absent.png");
    const png = readFileSync(join(REPOSITORY_ROOT, screenshot));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeLessThan(300 * 1024);
  });

  it("names no document outside the repository and no tracker issue", () => {
    const offending = DOCUMENTS.flatMap((file) =>
      readFileSync(join(REPOSITORY_ROOT, file), "utf8")
        .split("\n")
        .flatMap((text, index) =>
          /\bDESIGN\b/.test(text) || /\bissue\s+#?\d+/i.test(text) ? [`${file}:${index + 1}: ${text.trim()}`] : [],
        ),
    );
    expect(offending).toEqual([]);
  });
});

describe("GitHub's heading anchors, as the link check computes them", () => {
  it("drop punctuation and code marks, keep letters, digits, `-` and `_`, and turn spaces into `-`", () => {
    expect(headingAnchor("Layout: kit · harness · contracts · scripts")).toBe("layout-kit--harness--contracts--scripts");
    expect(headingAnchor("Signing keys (`npm run keys`)")).toBe("signing-keys-npm-run-keys");
    expect(headingAnchor("Using `TrustGated` from another project")).toBe("using-trustgated-from-another-project");
    expect(headingAnchor("`GET /api/trust-check?id=&chain=&registry=&threshold=`")).toBe("get-apitrust-checkidchainregistrythreshold");
  });
});

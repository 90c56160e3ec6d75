/**
 * The headings and links of a Markdown document, read as GitHub renders them, so that a test can check that every
 * relative link of the documentation reaches a file and, when it names one, a heading of that file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "./doc-blocks";

/** One link of a document. */
export interface DocLink {
  /** The document, relative to the repository's root. */
  readonly file: string;
  /** The line of the link (1-based). */
  readonly line: number;
  /** The link's target as written. */
  readonly target: string;
}

/** The document's lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(file: string): { text: string; line: number }[] {
  const lines = readFileSync(join(REPOSITORY_ROOT, file), "utf8").split("\n");
  const prose: { text: string; line: number }[] = [];
  let fenced = false;
  lines.forEach((text, index) => {
    if (/^```/.test(text)) fenced = !fenced;
    else if (!fenced) prose.push({ text, line: index + 1 });
  });
  return prose;
}

/**
 * GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, spaces, `-` and `_` kept), spaces
 * turned into `-`.
 *
 * @param heading The heading's text, without its `#` marks.
 * @returns The anchor, without `#`.
 */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/**
 * The anchors of a document's headings; a repeated heading gets `-1`, `-2`… as on GitHub.
 *
 * @param file The document, relative to the repository's root.
 * @returns Its anchors.
 */
export function docAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text } of proseLines(file)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * The links of a document outside code blocks and inline code, external ones (a scheme) left out.
 *
 * @param file The document, relative to the repository's root.
 * @returns Its relative links (`path`, `path#anchor` or `#anchor`), in order.
 */
export function docRelativeLinks(file: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { text, line } of proseLines(file)) {
    const withoutCode = text.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/\]\(([^()\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ file, line, target });
    }
  }
  return links;
}

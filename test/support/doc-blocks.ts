/**
 * The fenced code blocks of a Markdown document, each with the doc-test marker on the line before it, if any:
 *
 * - `<!-- doc-test: skip: <reason> -->`: a block that cannot run here, with the reason;
 * - `<!-- doc-test: foundry: <path> -->`: that file of the document's Foundry project;
 * - `<!-- doc-test: hardhat3: <path> -->`: that file of the document's Hardhat 3 project
 *   (written into the project of test/package/hardhat3-project.test.ts).
 *
 * test/docs/readme-blocks.test.ts runs or checks every block by its marker; the project tests take the blocks of
 * their own tool from here, so that the files a document prints are the files a test runs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root, against which documents are named. */
export const REPOSITORY_ROOT = resolve(__dirname, "../..");

/** The documentation, relative to the repository's root: the front page, the manual in `docs/`, and the two guides. */
export const DOCUMENTS: readonly string[] = [
  "README.md",
  "CHANGELOG.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(REPOSITORY_ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `docs/${file}`),
];

const SKIP = /^<!--\s*doc-test:\s*skip:\s*(\S.*?)\s*-->$/;
const PROJECT_FILE = /^<!--\s*doc-test:\s*(foundry|hardhat3):\s*(\S+)\s*-->$/;

/** A toolchain whose project a document's marked blocks make. */
export type DocProjectTool = "foundry" | "hardhat3";

/** One fenced block of a document. */
export interface DocBlock {
  /** The document, relative to the repository's root. */
  readonly file: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The fence's language, lower-cased (`""` when none). */
  readonly lang: string;
  /** The block's text, without the fences. */
  readonly code: string;
  /** The reason given by a skip marker. */
  readonly skip: string | undefined;
  /** The block's path in the document's Foundry project, when it is marked as one of its files. */
  readonly foundry: string | undefined;
  /** The block's path in the document's Hardhat 3 project, when it is marked as one of its files. */
  readonly hardhat3: string | undefined;
}

/**
 * The fenced blocks of a Markdown file, with their markers.
 *
 * @param file The document, relative to the repository's root.
 * @returns Its blocks, in order.
 */
export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(REPOSITORY_ROOT, file), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const marker = before >= 0 ? lines[before]!.trim() : "";
    const project = PROJECT_FILE.exec(marker);
    blocks.push({
      file,
      line: start + 1,
      lang: open[1]!.toLowerCase(),
      code: lines.slice(start + 1, end).join("\n"),
      skip: SKIP.exec(marker)?.[1],
      foundry: project?.[1] === "foundry" ? project[2] : undefined,
      hardhat3: project?.[1] === "hardhat3" ? project[2] : undefined,
    });
    i = end;
  }
  return blocks;
}

/**
 * The files of a project for one tool, gathered from one or more documents: each marked block under its path,
 * ending with a newline.
 *
 * @param documents The documents, relative to the repository's root.
 * @param tool The toolchain whose marked blocks to take.
 * @returns The project's files by path.
 * @throws Error when two blocks claim the same path.
 */
export function docProjectFiles(documents: string | readonly string[], tool: DocProjectTool): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of typeof documents === "string" ? [documents] : documents) {
    for (const block of docBlocks(file)) {
      const path = block[tool];
      if (path === undefined) continue;
      if (path in files) throw new Error(`${file}:${block.line}: a second block for ${tool} file ${path}`);
      files[path] = `${block.code}\n`;
    }
  }
  return files;
}

/**
 * The benchmark page, `docs/benchmarks.md`, that `npm run bench` writes: a generated header, then one section per
 * benchmark part between HTML comment markers. A run of some parts (`--only`) replaces their sections and keeps the
 * others, so parts measured by separate runs still make one whole page. Pure text functions; the writing is
 * `scripts/bench.ts`'s.
 *
 * @packageDocumentation
 */

/** The benchmark's parts, in the order they run and stand on the page. */
export const BENCH_PARTS = [
  "gas",
  "attested",
  "verification",
  "reader",
  "limiter",
  "drift",
  "memory",
  "demo",
  "html",
  "markdown",
  "watch",
  "mutation",
] as const;

/** One benchmark part. */
export type BenchPart = (typeof BENCH_PARTS)[number];

/** Each part's section title. */
export const BENCH_PART_TITLES: Readonly<Record<BenchPart, string>> = {
  gas: "Gas of gated calls and of publishing",
  attested: "Gas of the pull path (attested oracle)",
  verification: "Attestation verification",
  reader: "Oracle reads",
  limiter: "Client rate limiter",
  drift: "The nightly drift job",
  memory: "Peak memory of the CLI",
  demo: "Peak memory of the demo",
  html: "The HTML report page",
  markdown: "The Markdown summary",
  watch: "The watch: alert latency, memory over blocks, the audit's requests",
  mutation: "Mutation testing of the readers of signed data",
};

/**
 * The parts a run measures only when `--only` names them (`npm run bench` without it leaves their sections as they
 * are): mutation testing runs the unit suites once per mutant, far longer than every other part together, and has
 * its own command, `npm run test:mutation`.
 */
export const ON_DEMAND_BENCH_PARTS: readonly BenchPart[] = ["mutation"];

/** The page, relative to the repository's root. */
export const BENCH_PAGE_PATH = "docs/benchmarks.md";

/** The comments that open and close a part's section. */
export function sectionMarkers(part: BenchPart): { readonly start: string; readonly end: string } {
  return { start: `<!-- bench:${part}:start -->`, end: `<!-- bench:${part}:end -->` };
}

/**
 * The sections of an existing page, each part's text between its markers (markers excluded).
 *
 * @param page - The page's text.
 * @returns The text of each part that has a complete section.
 */
export function pageSections(page: string): Map<BenchPart, string> {
  const sections = new Map<BenchPart, string>();
  for (const part of BENCH_PARTS) {
    const { start, end } = sectionMarkers(part);
    const from = page.indexOf(start);
    const to = from < 0 ? -1 : page.indexOf(end, from + start.length);
    if (to >= 0) sections.set(part, page.slice(from + start.length, to).trim());
  }
  return sections;
}

/** What a part's section says before any run has measured it. */
export function unmeasuredSection(part: BenchPart): string {
  return `## ${BENCH_PART_TITLES[part]}\n\nNot measured yet: \`npx tsx scripts/bench.ts --only ${part}\` writes this section.`;
}

/**
 * The whole page: the header, then every part's section, in {@link BENCH_PARTS} order. A part measured now takes its
 * fresh text; any other keeps the existing page's section, or says it has not been measured.
 *
 * @param header - The page's header (title, the generated-file notice, the machine facts).
 * @param fresh - The sections measured by this run, by part.
 * @param existing - The page as it stands, if there is one.
 * @returns The page's text, ending with a newline.
 */
export function mergeBenchPage(header: string, fresh: ReadonlyMap<BenchPart, string>, existing: string | undefined): string {
  const kept = existing === undefined ? new Map<BenchPart, string>() : pageSections(existing);
  const sections = BENCH_PARTS.map((part) => {
    const { start, end } = sectionMarkers(part);
    const body = fresh.get(part) ?? kept.get(part) ?? unmeasuredSection(part);
    return `${start}\n${body.trim()}\n${end}`;
  });
  return `${[header.trim(), ...sections].join("\n\n")}\n`;
}

/**
 * A Markdown table whose columns are also aligned as plain text: the first column left, the others right.
 *
 * @param headers - The column titles.
 * @param rows - The cells, one array per row.
 * @returns The table's lines.
 */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const escape = (cell: string) => cell.replaceAll("|", "\\|");
  const cells = [headers.map(escape), ...rows.map((row) => row.map((cell) => escape(String(cell))))];
  const widths = headers.map((_, column) => Math.max(3, ...cells.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(" | ")} |`;
  const rule = `| ${widths.map((width, column) => (column === 0 ? "-".repeat(width) : `${"-".repeat(width - 1)}:`)).join(" | ")} |`;
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join("\n");
}

/**
 * Text as a Markdown code span: fenced with one more backtick than the longest run of backticks it holds, and padded
 * with a space when it starts or ends with a backtick (CommonMark strips one space on each side).
 *
 * @param text - Any text on one line.
 * @returns The code span.
 */
export function markdownCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Writing a drift report whose rows stream past: each row, as the scan produces it, goes to a spool file on disk
 * (its JSON text, its Markdown line and its HTML page tuple, for the outputs asked for) and its place in the report's order goes to a
 * compact index; the table keeps only the rows it may show ({@link createTopRows}), and the unverified rows are
 * counted by cause. When the run is done, the JSON document, the Markdown rows and the HTML page are written from the
 * report's head and the spooled rows, read back in the report's order; the Markdown summary from the head, the table's
 * decision flips and invalid attestations and the causes.
 *
 * So the documents are exactly what the in-memory report would have given — the same keys in the same order
 * (`summary` before `agents`), rows most severe first, byte for byte — while the command line's memory does not grow
 * with the rows: per row, the index holds about 30 bytes (its order keys and where its texts are in the spool); the
 * texts are on disk. The spool lives in a temporary folder next to the first output file (or in the system's
 * temporary folder when the outputs go to stdout) and is removed at the end, whatever happens.
 *
 * @packageDocumentation
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { open as openFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createRowTally, type RowTally, rowDeltaSize, rowRank, sortRows } from "../drift/report.js";
import type { DriftReportHead, DriftRow } from "../drift/types.js";
import { isFlipOrInvalid } from "../drift/verdict.js";
import { createCauseTally } from "./error-causes.js";
import { MARKDOWN_SUMMARY_ROWS, markdownSummary } from "./format-markdown.js";
import { MARKDOWN_NO_ROWS, MARKDOWN_ROWS_HEADER, markdownRow, markdownRowsHead } from "./markdown-rows.js";
import { createTopRows, type TopRows } from "./format-table.js";
import { pageEnd, pageStart } from "../report-html/page-template.js";
import { pageHead } from "../report-html/page-data.js";
import { pageRowText } from "../report-html/page-rows.js";
import type { NightRefreshes } from "../refresh/night-refreshes.js";
import type { CliStream } from "./io.js";

/** Where a document goes: a file path, or `-` for stdout. */
export type OutputTarget = string;

/** Options of {@link createReportStream}. */
export interface ReportStreamOptions {
  /** `--json`: the JSON report's target, if any. */
  readonly json?: OutputTarget | undefined;
  /** `--markdown`: the Markdown summary's target, if any. */
  readonly markdown?: OutputTarget | undefined;
  /** `--markdown-rows`: the file of every row as Markdown, if any. */
  readonly markdownRows?: string | undefined;
  /** `--html`: the HTML page's file, if any. */
  readonly html?: string | undefined;
  /** `--refresh-report`, read: the night's refreshes the page shows, if any. */
  readonly refreshes?: NightRefreshes | undefined;
  /** `--rows`: the table's cap on the rows besides flips and invalid attestations (`Infinity` for all). */
  readonly tableRows: number;
  /** Where `-` writes (stdout). */
  readonly stdout: CliStream;
  /** Folder for the spool (default: the first output file's folder, else the system's temporary folder). */
  readonly spoolDir?: string;
}

/** A report being written as its rows arrive (see the module notes). */
export interface ReportStream {
  /** Takes one row: spools it for the documents, counts it, and keeps it if the table may show it. */
  add(row: DriftRow): void;
  /** Rows taken so far. */
  readonly count: number;
  /** The tally of the rows taken (summary counts, refresh assessments). */
  readonly tally: RowTally;
  /** The rows the table may show (see {@link createTopRows}). */
  readonly top: TopRows;
  /**
   * Writes the JSON, Markdown and HTML documents: `head`, then the rows taken, most severe first (the Markdown
   * summary: the first decision flips and invalid attestations). A document that cannot be written does not stop the
   * others: it is listed in `failed`, and the caller reports it with the verdict.
   *
   * @param head - The report without its rows (its summary counts the rows taken).
   * @returns Which documents went to files, and which could not be written.
   */
  finish(head: DriftReportHead): Promise<ReportStreamFinish>;
  /** Removes the spool (safe to call more than once, and after {@link finish}). */
  close(): void;
}

/** A document of the report: the option that asked for it. */
export type ReportDocument = "--json" | "--markdown" | "--markdown-rows" | "--html";

/** The documents a {@link ReportStream} wrote to files, by output. */
export interface ReportFiles {
  readonly json?: string;
  readonly markdown?: string;
  readonly markdownRows?: string;
  readonly html?: string;
}

/** A document that could not be written. */
export interface FailedDocument {
  /** The option that asked for it. */
  readonly flag: ReportDocument;
  /** Where it was to go (`-` for stdout). */
  readonly target: OutputTarget;
  /** What the write threw. */
  readonly error: unknown;
}

/** What {@link ReportStream.finish} wrote, and what it could not. */
export interface ReportStreamFinish {
  /** The documents written to files. */
  readonly files: ReportFiles;
  /** The documents that could not be written (empty when all were). */
  readonly failed: readonly FailedDocument[];
}

/** Initial room of the index, in rows; it doubles as needed. */
const INITIAL_ROWS = 1024;
/** Bytes gathered before a write to the spool or an output. */
const CHUNK_BYTES = 1 << 20;

/**
 * Starts writing a report.
 *
 * @param options - Targets, the table's cap, stdout and the spool's folder.
 * @returns The stream; call {@link ReportStream.close} at the end whatever happens.
 */
export function createReportStream(options: ReportStreamOptions): ReportStream {
  const tally = createRowTally();
  const top = createTopRows(options.tableRows);
  const causes = createCauseTally();
  const wantJson = options.json !== undefined;
  const wantMarkdown = options.markdownRows !== undefined;
  const wantHtml = options.html !== undefined;
  const index = new RowIndex();
  let spool: Spool | undefined;
  const spoolOf = (): Spool =>
    (spool ??= new Spool(options.spoolDir ?? spoolFolder(options), { json: wantJson, markdown: wantMarkdown, html: wantHtml }));

  return {
    add(row) {
      tally.add(row);
      top.add(row);
      causes.add(row);
      if (!wantJson && !wantMarkdown && !wantHtml) return;
      const s = spoolOf();
      index.push(row, {
        ...(wantJson ? { json: s.append("json", jsonRowText(row)) } : {}),
        ...(wantMarkdown ? { markdown: s.append("markdown", markdownRow(row)) } : {}),
        ...(wantHtml ? { html: s.append("html", pageRowText(row)) } : {}),
      });
    },
    get count() {
      return tally.agents;
    },
    tally,
    top,
    async finish(head) {
      spool?.flush();
      const order = index.order();
      const files: { json?: string; markdown?: string; markdownRows?: string; html?: string } = {};
      const failed: FailedDocument[] = [];
      /** Writes one document; a failure is recorded and the next document is still written. */
      const document = async (flag: ReportDocument, target: OutputTarget, write: (out: Target) => Promise<void>): Promise<boolean> => {
        let out: Target | undefined;
        try {
          out = await openTarget(target, options.stdout);
          await write(out);
          await out.close();
          return true;
        } catch (error) {
          await out?.close().catch(() => undefined);
          failed.push({ flag, target, error });
          return false;
        }
      };
      if (options.json !== undefined) {
        const written = await document("--json", options.json, async (target) => {
          await target.write(jsonHeadText(head, order.length));
          if (order.length > 0) {
            await copyRows(spool!, "json", index, order, target, ",\n");
            await target.write("\n  ]\n}\n");
          }
        });
        if (written && options.json !== "-") files.json = options.json;
      }
      if (options.markdown !== undefined) {
        // The table keeps every decision flip and invalid attestation: the summary lists the first of them.
        const problems = sortRows(top.rows().filter(isFlipOrInvalid));
        const written = await document("--markdown", options.markdown, async (target) => {
          await target.write(
            markdownSummary({
              head,
              tally,
              problems: problems.slice(0, MARKDOWN_SUMMARY_ROWS),
              problemCount: problems.length,
              causes: { groups: causes.groups(), otherRows: causes.otherRows },
              outputs: { json: options.json, html: options.html, markdownRows: options.markdownRows },
            }),
          );
        });
        if (written && options.markdown !== "-") files.markdown = options.markdown;
      }
      if (options.markdownRows !== undefined) {
        const written = await document("--markdown-rows", options.markdownRows, async (target) => {
          await target.write(`${markdownRowsHead(head)}\n`);
          if (order.length === 0) await target.write(`${MARKDOWN_NO_ROWS}\n`);
          else {
            await target.write(`${MARKDOWN_ROWS_HEADER.join("\n")}\n`);
            await copyRows(spool!, "markdown", index, order, target, "\n");
            await target.write("\n");
          }
        });
        if (written) files.markdownRows = options.markdownRows;
      }
      if (options.html !== undefined) {
        const written = await document("--html", options.html, async (target) => {
          await target.write(pageStart(pageHead(head), options.refreshes));
          if (order.length > 0) await copyRows(spool!, "html", index, order, target, ",\n");
          await target.write(pageEnd());
        });
        if (written) files.html = options.html;
      }
      return { files, failed };
    },
    close() {
      spool?.remove();
      spool = undefined;
    },
  };
}

/**
 * A row as it stands in the JSON report: pretty-printed with two-space indentation and indented to its depth in
 * `agents` (four spaces), as `JSON.stringify(report, null, 2)` writes it.
 *
 * @param row - The row.
 * @returns Its text, without a separator.
 */
export function jsonRowText(row: DriftRow): string {
  return `    ${JSON.stringify(row, null, 2).replace(/\n/g, "\n    ")}`;
}

/**
 * The JSON report up to its first row: the head's keys, then `"agents": [` — or the whole document when there are no
 * rows (`"agents": []`).
 *
 * @param head - The report without its rows.
 * @param rows - How many rows follow.
 * @returns The text.
 */
export function jsonHeadText(head: DriftReportHead, rows: number): string {
  const text = JSON.stringify(head, null, 2);
  // `{…\n}`: open it again after its last key.
  const open = text.slice(0, text.lastIndexOf("\n}"));
  const separator = open === "{" ? "\n" : ",\n";
  return rows === 0 ? `${open}${separator}  "agents": []\n}\n` : `${open}${separator}  "agents": [\n`;
}

/** The folder the spool goes in: next to the first output file (the disk chosen for the report), else the system's. */
function spoolFolder(options: Pick<ReportStreamOptions, "json" | "markdown" | "markdownRows" | "html">): string {
  const file = [options.json, options.markdown, options.markdownRows, options.html].find(
    (target) => target !== undefined && target !== "-",
  );
  return file === undefined ? tmpdir() : dirname(resolve(file));
}

type SpoolPart = "json" | "markdown" | "html";

const SPOOL_PARTS: readonly SpoolPart[] = ["json", "markdown", "html"];

/** Append-only files of row texts in a temporary folder, written in chunks. */
class Spool {
  private readonly dir: string;
  private readonly parts: Partial<Record<SpoolPart, { fd: number; size: number; pending: string[]; pendingBytes: number }>> = {};

  constructor(parent: string, wanted: Readonly<Record<SpoolPart, boolean>>) {
    this.dir = mkdtempSync(join(parent, ".trustgate-rows-"));
    for (const part of SPOOL_PARTS) {
      if (wanted[part]) this.parts[part] = { fd: openSync(join(this.dir, `${part}.spool`), "w+"), size: 0, pending: [], pendingBytes: 0 };
    }
  }

  /** Appends a text; returns where it is (byte offset and length). */
  append(part: SpoolPart, text: string): { offset: number; length: number } {
    const file = this.parts[part]!;
    const length = Buffer.byteLength(text);
    const offset = file.size;
    file.size += length;
    file.pending.push(text);
    file.pendingBytes += length;
    if (file.pendingBytes >= CHUNK_BYTES) this.flushPart(file);
    return { offset, length };
  }

  flush(): void {
    for (const file of Object.values(this.parts)) this.flushPart(file);
  }

  /** Reads `length` bytes at `offset` into `buffer` (from its start). */
  read(part: SpoolPart, buffer: Buffer, offset: number, length: number): void {
    const fd = this.parts[part]!.fd;
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, offset + done);
      if (n === 0) throw new Error(`The row spool ended early (${part}, byte ${offset + done})`);
      done += n;
    }
  }

  remove(): void {
    for (const file of Object.values(this.parts)) {
      try {
        closeSync(file.fd);
      } catch {
        // already closed
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private flushPart(file: { fd: number; pending: string[]; pendingBytes: number }): void {
    if (file.pending.length === 0) return;
    const chunk = Buffer.from(file.pending.join(""));
    let done = 0;
    while (done < chunk.length) done += writeSync(file.fd, chunk, done);
    file.pending = [];
    file.pendingBytes = 0;
  }
}

/**
 * Each row's place in the report's order (`compareRows`: severity class, size of the score change, agent) and
 * where its texts are in the spool, in typed arrays that double as they fill.
 */
class RowIndex {
  private size = 0;
  private rank = new Uint8Array(INITIAL_ROWS);
  private delta = new Float64Array(INITIAL_ROWS);
  private chain = new Uint32Array(INITIAL_ROWS);
  private registry = new Uint32Array(INITIAL_ROWS);
  /** The agent id when it is a safe integer, else NaN (then it is in `bigIds`). */
  private agentId = new Float64Array(INITIAL_ROWS);
  private readonly bigIds = new Map<number, bigint>();
  /** Per spool part: where each row's text starts, and its length. */
  private readonly at: Record<SpoolPart, Float64Array> = {
    json: new Float64Array(INITIAL_ROWS),
    markdown: new Float64Array(INITIAL_ROWS),
    html: new Float64Array(INITIAL_ROWS),
  };
  private readonly length: Record<SpoolPart, Uint32Array> = {
    json: new Uint32Array(INITIAL_ROWS),
    markdown: new Uint32Array(INITIAL_ROWS),
    html: new Uint32Array(INITIAL_ROWS),
  };
  private readonly chains = new Interned();
  private readonly registries = new Interned();

  push(row: DriftRow, texts: Partial<Record<SpoolPart, { offset: number; length: number }>>): void {
    if (this.size === this.rank.length) this.grow();
    const i = this.size++;
    this.rank[i] = rowRank(row);
    this.delta[i] = rowDeltaSize(row);
    this.chain[i] = this.chains.id(row.chain);
    this.registry[i] = this.registries.id(row.registry);
    const id = Number(row.agentId);
    if (Number.isSafeInteger(id) && /^\d+$/.test(row.agentId)) this.agentId[i] = id;
    else {
      this.agentId[i] = Number.NaN;
      this.bigIds.set(i, BigInt(row.agentId));
    }
    for (const part of SPOOL_PARTS) {
      const text = texts[part];
      if (text === undefined) continue;
      this.at[part][i] = text.offset;
      this.length[part][i] = text.length;
    }
  }

  /** Where row `i`'s text of `part` is. */
  where(part: SpoolPart, i: number): { offset: number; length: number } {
    return { offset: this.at[part][i]!, length: this.length[part][i]! };
  }

  /** The rows' indexes in the report's order (a stable sort: rows of the same place keep their arrival order). */
  order(): Uint32Array {
    const chainRank = this.chains.ranks();
    const registryRank = this.registries.ranks();
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[i] = i;
    const id = (i: number): bigint | number => {
      const n = this.agentId[i]!;
      return Number.isNaN(n) ? this.bigIds.get(i)! : n;
    };
    return order.sort(
      (a, b) =>
        this.rank[a]! - this.rank[b]! ||
        this.delta[b]! - this.delta[a]! ||
        chainRank[this.chain[a]!]! - chainRank[this.chain[b]!]! ||
        compareIds(id(a), id(b)) ||
        registryRank[this.registry[a]!]! - registryRank[this.registry[b]!]!,
    );
  }

  private grow(): void {
    const bigger = <T extends Uint8Array | Uint32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(array.length * 2);
      next.set(array);
      return next;
    };
    this.rank = bigger(this.rank);
    this.delta = bigger(this.delta);
    this.chain = bigger(this.chain);
    this.registry = bigger(this.registry);
    this.agentId = bigger(this.agentId);
    for (const part of SPOOL_PARTS) {
      this.at[part] = bigger(this.at[part]);
      this.length[part] = bigger(this.length[part]);
    }
  }
}

function compareIds(a: bigint | number, b: bigint | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Strings numbered in order of arrival, and ranked as `localeCompare` orders them (as `compareAgentRefs` does). */
class Interned {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  /** Rank by id: equal names (by `localeCompare`) get equal ranks. */
  ranks(): Int32Array {
    const sorted = this.names.map((name, id) => ({ name, id })).sort((a, b) => a.name.localeCompare(b.name));
    const ranks = new Int32Array(this.names.length);
    sorted.forEach((entry, position) => {
      const previous = sorted[position - 1];
      ranks[entry.id] = previous && previous.name.localeCompare(entry.name) === 0 ? ranks[previous.id]! : position;
    });
    return ranks;
  }
}

/** A document's destination: a file, or stdout (waiting for it to drain when it asks to). */
interface Target {
  write(text: string | Buffer): Promise<void>;
  close(): Promise<void>;
}

async function openTarget(target: OutputTarget, stdout: CliStream): Promise<Target> {
  if (target === "-") {
    return {
      async write(text) {
        const ok = stdout.write(typeof text === "string" ? text : text.toString("utf8"));
        const stream = stdout as CliStream & { once?: (event: string, listener: () => void) => unknown };
        if (ok === false && typeof stream.once === "function") await new Promise<void>((done) => stream.once!("drain", done));
      },
      async close() {},
    };
  }
  const handle = await openFile(target, "w");
  return {
    async write(text) {
      const bytes = typeof text === "string" ? Buffer.from(text) : text;
      let done = 0;
      while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
    },
    close: () => handle.close(),
  };
}

/** Copies the rows' texts of `part` from the spool to `target` in the given order, with `separator` between them. */
async function copyRows(
  spool: Spool,
  part: SpoolPart,
  index: RowIndex,
  order: Uint32Array,
  target: Target,
  separator: string,
): Promise<void> {
  const between = Buffer.from(separator);
  let buffer = Buffer.alloc(64 * 1024);
  const chunk: Buffer[] = [];
  let chunkBytes = 0;
  for (let k = 0; k < order.length; k++) {
    const { offset, length } = index.where(part, order[k]!);
    if (length > buffer.length) buffer = Buffer.alloc(Math.max(length, buffer.length * 2));
    spool.read(part, buffer, offset, length);
    if (k > 0) chunk.push(between);
    // A copy: the read buffer is reused for the next row.
    chunk.push(Buffer.from(buffer.subarray(0, length)));
    chunkBytes += length + (k > 0 ? between.length : 0);
    if (chunkBytes >= CHUNK_BYTES) {
      await target.write(Buffer.concat(chunk));
      chunk.length = 0;
      chunkBytes = 0;
    }
  }
  if (chunk.length > 0) await target.write(Buffer.concat(chunk));
}

/**
 * Reading a JSON report a command wrote (the drift job's, the refresh command's) back into what a reader needs: the
 * text parsed and checked against the reader's schema, and any failure one clear error naming the file, the first
 * field that is wrong (`agents[3].refresh.kid`) and the command whose file to give.
 *
 * @packageDocumentation
 */
import type { z } from "zod";
import { InvalidArgumentError } from "../errors.js";

/** What a report is, for the messages. */
export interface JsonReportKind {
  /** What the file should be, after "is not" (`a refresh report`). */
  readonly what: string;
  /** The command that writes it (`trustgate refresh --json`). */
  readonly writer: string;
}

/**
 * Parses a report's text with a schema.
 *
 * @param text - The file's text.
 * @param source - Where it came from, for the messages (`--from report.json`).
 * @param schema - What the reader needs of it.
 * @param kind - What the report is and which command writes it.
 * @returns The parsed report.
 * @throws {@link InvalidArgumentError} when the text is not JSON, or the first field the schema refuses, by name.
 */
export function parseJsonReport<S extends z.ZodType>(text: string, source: string, schema: S, kind: JsonReportKind): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`${source} is not JSON (${(error as Error).message}): give the file ${kind.writer} wrote`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path
      .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
      .join("")
      .replace(/^\./, "");
    throw new InvalidArgumentError(
      `${source} is not ${kind.what}: ${path || "the document"}: ${issue.message} (give the file ${kind.writer} wrote)`,
    );
  }
  return parsed.data;
}

/**
 * A row's text in the page's rows element: its tuple ({@link pageRow}) as JSON safe inside a `<script>` element.
 *
 * @packageDocumentation
 */
import type { DriftRow } from "../drift/types.js";
import { pageRow } from "./page-data.js";
import { scriptJson } from "./script-json.js";

/**
 * A row as it stands in the page's rows array (without a separator).
 *
 * @param row - A report row.
 * @returns Its JSON text, safe inside a `<script>` element.
 */
export function pageRowText(row: DriftRow): string {
  return scriptJson(pageRow(row));
}

/**
 * The charting library the page draws with: uPlot (MIT, no dependencies), a runtime dependency pinned exactly,
 * read from its installed package when a page is written and inlined into it (its minified script and its
 * stylesheet), so that the page loads nothing.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** uPlot's minified browser script (it defines the global `uPlot`) and its stylesheet. */
export interface ChartLibrary {
  readonly script: string;
  readonly style: string;
}

let loaded: ChartLibrary | undefined;

/**
 * uPlot's browser build, read once from the installed package.
 *
 * @returns Its script and stylesheet.
 */
export function chartLibrary(): ChartLibrary {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const read = (file: string) => readFileSync(require.resolve(`uplot/dist/${file}`), "utf8");
  loaded = { script: read("uPlot.iife.min.js"), style: read("uPlot.min.css") };
  return loaded;
}

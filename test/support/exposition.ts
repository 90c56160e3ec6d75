/**
 * Reads Prometheus's text exposition format (what `/metrics` serves) into samples, so that a test compares the
 * values a registry exposes with what it drove, the way a scraper reads them.
 */

/** One sample: a series' name, its labels and its value. */
export interface ExposedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses an exposition: every sample line (comments and blank lines skipped).
 *
 * @throws when a line is neither a comment nor a sample.
 */
export function parseExposition(text: string): ExposedSample[] {
  const samples: ExposedSample[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(LABEL)) labels[label[1]!] = label[2]!.replace(/\\(.)/g, "$1");
    const raw = match[3]!;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/**
 * The value of the one sample with this name and exactly these labels; `undefined` when there is none.
 *
 * @throws when more than one sample matches.
 */
export function sampleValue(
  samples: readonly ExposedSample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const wanted = Object.entries(labels).sort();
  const matches = samples.filter(
    (sample) => sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === JSON.stringify(wanted),
  );
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}

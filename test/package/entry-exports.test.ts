/**
 * Every package entry's public names, snapshotted in `__snapshots__/entry-exports.test.ts.snap`: a change to any list
 * is a change to the public surface and shows in review as a change to that file
 * (`npx vitest run test/package/entry-exports.test.ts --update=all` rewrites the lists).
 * Runtime names are what the entry's module exports; type names are its type-only exports. Also checked here:
 * no entry reaches a name by `export *` (every name is listed in the entry or the module it names).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENTRY_SOURCES, type EntryName, type EntryNames, entryNames } from "../support/entry-names";

const ROOT = resolve(__dirname, "../..");

let names: Record<EntryName, EntryNames>;

beforeAll(async () => {
  names = await entryNames();
}, 120_000);

/** The relative modules a file re-exports from (`export … from "./x.js"`). */
function reExportedModules(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^export\s[^;]*?from\s+"(\.[^"]+)";/gms)].map((match) => join(dirname(file), match[1]!.replace(/\.js$/, ".ts")));
}

describe("the package entries", () => {
  it("reach no name by export *, on any entry's path", () => {
    const seen = new Set<string>();
    const pending = Object.values(ENTRY_SOURCES).map((file) => join(ROOT, file));
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      expect(readFileSync(file, "utf8"), file).not.toMatch(/^export\s+\*/m);
      pending.push(...reExportedModules(file));
    }
    expect(seen.size).toBeGreaterThan(Object.keys(ENTRY_SOURCES).length);
  });

  it("trustgate", () => {
    expect(names.trustgate).toMatchSnapshot();
  });

  it("trustgate/drift", () => {
    expect(names["trustgate/drift"]).toMatchSnapshot();
  });

  it("trustgate/deploy", () => {
    expect(names["trustgate/deploy"]).toMatchSnapshot();
  });

  it("trustgate/refresh", () => {
    expect(names["trustgate/refresh"]).toMatchSnapshot();
  });

  it("trustgate/watch", () => {
    expect(names["trustgate/watch"]).toMatchSnapshot();
  });

  it("trustgate/service", () => {
    expect(names["trustgate/service"]).toMatchSnapshot();
  });

  it("trustgate/testing", () => {
    expect(names["trustgate/testing"]).toMatchSnapshot();
  });

  it("trustgate/harness", () => {
    expect(names["trustgate/harness"]).toMatchSnapshot();
  });
});

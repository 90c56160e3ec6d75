/**
 * Every type a public function needs is one its entry exports: the kit's own types met through each entry's functions'
 * (and classes' constructors') parameters and results, followed into their properties (`test/support/public-types.ts`),
 * are each exported by that entry, so a caller can name what it passes and what it gets without reaching into `dist/`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ENTRY_SOURCES, type EntryName } from "../support/entry-names";
import { type EntryReach, publicTypeReach } from "../support/public-types";

let reach: Record<EntryName, EntryReach>;

beforeAll(() => {
  reach = publicTypeReach();
}, 120_000);

describe("the types the entries' functions reach", () => {
  it("are found: the walk reaches the types a caller meets first", () => {
    const main = reach.trustgate;
    expect(main.functions).toEqual(expect.arrayContaining(["readTrustRecord", "verifyTrustAttestation", "evaluateTrustPolicy"]));
    const names = main.reached.map((type) => type.name);
    // A parameter bag, a result, a property's type (TrustRecordRead.key) and an error class's property type.
    expect(names).toEqual(
      expect.arrayContaining(["ReadTrustRecordParameters", "TrustRecordResult", "TrustRecordKey", "OracleReadFailure"]),
    );
    // Through a property of a parameter: DriftConfig.encoding.
    expect(reach["trustgate/drift"].reached.map((type) => type.name)).toContain("TrustEncoding");
  });

  for (const entry of Object.keys(ENTRY_SOURCES) as EntryName[]) {
    it(`are each exported by ${entry}`, () => {
      const { reached, exported } = reach[entry];
      const missing = reached.filter((type) => !exported.has(type.name)).map((type) => `${type.name} (${type.file}), via ${type.via}`);
      expect(missing).toEqual([]);
    });
  }
});

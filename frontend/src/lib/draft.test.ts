import { describe, expect, it } from "vitest";
import { DEFAULT_DRAFT, decodeDraft, draftFromPlatform, encodeDraft, migrate, toPlatform } from "./draft";
import { validateDraft } from "./validation";

describe("draft in the URL", () => {
  it("writes only values that differ from the defaults, with the schema version", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.host.os = "solaris";
    draft.network.jumbo_frames = false;
    const params = encodeDraft(draft);
    expect(params.toString()).toBe("v=1&host.os=solaris&network.jumbo_frames=0");
  });

  it("reads back what it wrote", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.layout.db_name = "ORCL";
    draft.oracle.rac = true;
    draft.oracle.rac_nodes = "4";
    draft.as_of = "2005-06-01";
    expect(decodeDraft(encodeDraft(draft))).toEqual(draft);
  });

  it("opens links from before versioning (no v) with the same keys", () => {
    const migrated = migrate(new URLSearchParams("host.os=aix"));
    expect(migrated.get("v")).toBe("1");
    expect(decodeDraft("host.os=aix").host.os).toBe("aix");
  });

  it("leaves links from a newer version alone rather than guessing", () => {
    expect(migrate(new URLSearchParams("v=9&host.os=aix")).get("v")).toBe("9");
  });

  it("turns a platform into answers and back", () => {
    const platform = toPlatform(DEFAULT_DRAFT);
    expect(draftFromPlatform(platform)).toEqual(DEFAULT_DRAFT);
    expect(platform.host.memory_gb).toBeNull();
    expect(platform.oracle.rac_nodes).toBeNull();
  });
});

describe("validation", () => {
  it("accepts the defaults", () => {
    expect(validateDraft(DEFAULT_DRAFT, true)).toEqual({});
  });

  it("names the field and says how to fix it", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.layout.filer_host = "filer 01";
    draft.layout.db_name = "x;rm";
    draft.network.nic_count = "0";
    const errors = validateDraft(draft, true);
    expect(errors["layout.filer_host"]).toMatch(/no spaces/);
    expect(errors["layout.db_name"]).toMatch(/starting with a letter/);
    expect(errors["network.nic_count"]).toMatch(/between 1 and 16/);
  });

  it("requires the filer release only where the vendor needs it", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.filer.os_version = "";
    expect(validateDraft(draft, true)["filer.os_version"]).toBeDefined();
    expect(validateDraft(draft, false)["filer.os_version"]).toBeUndefined();
  });
});

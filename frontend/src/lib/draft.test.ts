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

describe("hand-over and sizing answers", () => {
  function answered() {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.oracle.rac = true;
    draft.oracle.rac_nodes = "2";
    draft.handover.svm = "svm_prod";
    draft.handover.cluster_nodes = "dbnode1, dbnode2";
    draft.handover.p1_host_interface = "eth1";
    draft.handover.p1_filer_address = "192.168.10.21";
    draft.handover.p2_filer_address = "192.168.11.21";
    draft.handover.oracle_uid = "54321";
    draft.sizing.database_gb = "800";
    draft.sizing.redo_mb_per_s = "2.5";
    return draft;
  }

  it("sends nothing when no question is answered", () => {
    const platform = toPlatform(DEFAULT_DRAFT);
    expect(platform.handover).toBeNull();
    expect(platform.sizing).toBeNull();
  });

  it("builds the nested hand-over and the sizing section", () => {
    const platform = toPlatform(answered());
    expect(platform.handover?.svm).toBe("svm_prod");
    expect(platform.handover?.cluster_nodes).toEqual(["dbnode1", "dbnode2"]);
    expect(platform.handover?.paths).toEqual([
      { host_interface: "eth1", host_address: null, filer_interface: null, filer_address: "192.168.10.21" },
      { host_interface: null, host_address: null, filer_interface: null, filer_address: "192.168.11.21" },
    ]);
    expect(platform.handover?.oracle_uid).toBe(54321);
    expect(platform.sizing?.database_gb).toBe(800);
    expect(platform.sizing?.redo_mb_per_s).toBe(2.5);
    expect(platform.sizing?.horizon_years).toBeNull();
  });

  it("drops answers that do not apply (cluster nodes without RAC, SVM on other vendors)", () => {
    const draft = answered();
    draft.oracle.rac = false;
    draft.filer.vendor = "oracle_zfssa";
    const platform = toPlatform(draft);
    expect(platform.handover?.cluster_nodes).toEqual([]);
    expect(platform.handover?.svm).toBeNull();
  });

  it("sends the kind of change only when it is one the schema knows", () => {
    const draft = answered();
    expect(toPlatform(draft).handover?.change_kind).toBeNull();
    draft.handover.change_kind = "new_build";
    expect(toPlatform(draft).handover?.change_kind).toBe("new_build");
    draft.handover.change_kind = "rebuild";
    expect(toPlatform(draft).handover?.change_kind).toBeNull();
  });

  it("round-trips through a saved platform and the URL", () => {
    const draft = answered();
    draft.handover.change_kind = "migration";
    expect(draftFromPlatform(toPlatform(draft))).toEqual(draft);
    expect(decodeDraft(encodeDraft(draft))).toEqual(draft);
  });

  it("names the hand-over field with a bad answer", () => {
    const draft = answered();
    draft.handover.p1_host_address = "192.168.10.11";
    draft.handover.client_subnet = "10.0.0.0/33";
    draft.sizing.database_gb = "a lot";
    const errors = validateDraft(draft, true);
    expect(errors["handover.p1_host_address"]).toContain("prefix length");
    expect(errors["handover.client_subnet"]).toContain("CIDR");
    expect(errors["sizing.database_gb"]).toContain("as a number");
  });
});

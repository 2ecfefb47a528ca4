import { describe, expect, it } from "vitest";
import { DEFAULT_DRAFT, type Draft } from "./draft";
import { FIELD_ROWS, FIELD_SCHEMAS, splitErrors, validateDraft, withoutAnswers } from "./validation";

function draftWith(change: (draft: Draft) => void): Draft {
  const draft = structuredClone(DEFAULT_DRAFT);
  change(draft);
  return draft;
}

describe("field checks generated from the backend's table", () => {
  it("check every typed answer the wizard asks for", () => {
    const typed: Record<string, string[]> = {
      host: ["os_version", "memory_gb", "hostname", "nic_interface"],
      network: ["nic_count", "switch_hops", "router_hops", "rtt_us"],
      oracle: ["version", "rac_nodes", "instances"],
      filer: ["model", "os_version", "interface", "capacity_tib"],
      layout: ["filer_host", "db_name"],
      handover: ["svm", "aggregate", "capacity_pool", "broadcast_domain", "fsx_svm_id", "cluster_nodes", "client_subnet", "nfs4_id_domain", "oracle_uid", "oracle_gid", "p1_host_address", "p4_filer_interface"],
      sizing: Object.keys(DEFAULT_DRAFT.sizing),
    };
    for (const [section, fields] of Object.entries(typed)) {
      const checked = Object.keys(FIELD_SCHEMAS[section as keyof typeof FIELD_SCHEMAS]);
      for (const field of fields) expect(checked, `${section}.${field}`).toContain(field);
    }
  });

  it("say what the API would say", () => {
    const errors = validateDraft(draftWith((d) => (d.host.hostname = "db host")), true);
    expect(errors["host.hostname"]).toBe(FIELD_ROWS.find((r) => r.path === "host.hostname")?.error);
    expect(errors["host.hostname"]).toMatch(/no spaces/);
  });

  it("hold the backend's limits, which the hand-written copies had lost", () => {
    // The API refuses a yearly growth over 1000 %: the browser now says so before sending.
    const errors = validateDraft(draftWith((d) => (d.sizing.growth_pct_per_year = "5000")), true);
    expect(errors["sizing.growth_pct_per_year"]).toBe("the yearly growth in % must be at least 0 and at most 1000");
    expect(validateDraft(draftWith((d) => (d.sizing.growth_pct_per_year = "20")), true)).toEqual({});
    const routers = validateDraft(draftWith((d) => (d.network.router_hops = "17")), true);
    expect(routers["network.router_hops"]).toBe("the number of routers must be between 0 and 16");
  });
});

describe("splitErrors", () => {
  it("leaves out a wrong optional answer the wizard starts empty, and nothing else", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.host.nic_interface = "eth 0";
    draft.handover.p2_filer_interface = "lif 1";
    draft.network.nic_count = "x";
    const errors = validateDraft(draft, true);
    const { blocking, leftOut } = splitErrors(errors);
    expect(Object.keys(leftOut).sort()).toEqual(["handover.p2_filer_interface", "host.nic_interface"]);
    expect(Object.keys(blocking)).toEqual(["network.nic_count"]);
  });

  it("keeps an answer a vendor requires blocking, though the platform calls it optional", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.filer.vendor = "aws_fsxn";
    const { blocking, leftOut } = splitErrors(validateDraft(draft, false));
    expect(blocking["filer.throughput_mb_s"]).toBe("choose the file system's throughput capacity");
    expect(leftOut).toEqual({});
  });

  it("blanks the answers left out and nothing else", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.host.nic_interface = "eth 0";
    draft.host.hostname = "db01";
    const planned = withoutAnswers(draft, ["host.nic_interface"]);
    expect(planned.host.nic_interface).toBe("");
    expect(planned.host.hostname).toBe("db01");
    expect(draft.host.nic_interface).toBe("eth 0");
  });
});

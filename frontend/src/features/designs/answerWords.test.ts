import { describe, expect, it } from "vitest";
import type { Catalog, Change } from "../../api/client";
import platformFields from "../../api/platform-fields.json";
import { ANSWER_LABELS, answerLabel, answerName, answerValue, changeWords, EXPECTATION_WORDS, expectationValue } from "./answerWords";

const CATALOG = {
  os: { solaris: { label: "Oracle (Sun) Solaris", releases: [{ id: "9u5", label: "Solaris 9 9/05" }] } },
  network: { nic_speeds: [{ gbps: 25, label: "25 Gigabit Ethernet" }], switch_kinds: [{ id: "cut_through", label: "Cut-through switch" }] },
  workloads: [
    { id: "oltp", label: "OLTP (transactions)" },
    { id: "dss", label: "DSS (scans, reporting)" },
  ],
  nfs_versions: [{ id: "4.1", label: "NFSv4.1" }],
  filers: { netapp: { label: "NetApp" } },
} as unknown as Catalog;

function change(partial: Partial<Change> & Pick<Change, "item" | "key">): Change {
  return { kind: "changed", before: null, after: null, rules_before: [], rules_after: [], reason: "", added_tokens: [], removed_tokens: [], shifts: [], setting: null, ...partial };
}

describe("platform answers in words", () => {
  it("names every answer the platform has, as the wizard does", () => {
    const paths = platformFields.map((field) => field.path);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !ANSWER_LABELS[path])).toEqual([]);
  });

  it("names a storage path's answers by the path's number", () => {
    expect(answerName("handover.paths[].host_address", 2)).toBe("Path 2: host address");
    expect(answerName("handover.cluster_nodes[]")).toBe("RAC node host names");
    expect(answerName("network.nic_gbps", null)).toBe("NIC speed");
    // The wizard's own keys: a storage path's answers are flat there.
    expect(answerLabel("handover.p2_host_address")).toBe("Path 2: host address");
    expect(answerLabel("handover.cluster_nodes")).toBe("RAC node host names");
    expect(answerLabel("filer.throughput_mb_s")).toBe("Throughput capacity per HA pair");
  });

  it("reads a change's answer from its parts, not from its key", () => {
    const moved = change({ item: "platform", key: "handover.paths.2.host_address", before: "10.0.0.1/24", after: "10.0.0.2/24", answer: { field: "handover.paths[].host_address", number: 2 } });
    expect(changeWords(moved).name).toBe("Path 2: host address");
  });

  it("says choices by their catalog labels, yes and no, and measures with units", () => {
    expect(answerValue("oracle.workload", "dss", CATALOG)).toBe("DSS (scans, reporting)");
    expect(answerValue("network.nic_gbps", "25", CATALOG)).toBe("25 Gigabit Ethernet");
    expect(answerValue("network.nic_gbps", "25")).toBe("25 Gb/s");
    expect(answerValue("host.os_version", "9u5", CATALOG)).toBe("Solaris 9 9/05");
    expect(answerValue("oracle.dnfs", "true")).toBe("yes");
    expect(answerValue("network.jumbo_frames", "false")).toBe("no");
    expect(answerValue("host.memory_gb", "1024")).toBe("1,024 GB");
    expect(answerValue("sizing.growth_pct_per_year", "12.5")).toBe("12.5%");
    expect(answerValue("layout.oracle_home", "nas")).toBe("On the filer");
    expect(answerValue("host.hostname", "(none)")).toBe("not given");
    // A release and an id stay exactly as typed.
    expect(answerValue("oracle.version", "19.21")).toBe("19.21");
    expect(answerValue("handover.oracle_uid", "54321")).toBe("54321");
  });
});

describe("expectations in words", () => {
  it("gives scan throughput and the TCP window their units", () => {
    expect(EXPECTATION_WORDS.planned_scan_mb_s.label).toBe("Planned scan throughput");
    expect(expectationValue("planned_scan_mb_s", "2350.0")).toBe("2,350 MB/s");
    expect(expectationValue("tcp_window_bytes", "262144")).toBe("262,144 bytes (256 KiB)");
    expect(expectationValue("transfer_bytes", "1000")).toBe("1,000 bytes");
    expect(expectationValue("rtt_measured", "true")).toBe("yes");
    expect(expectationValue("planned_scan_mb_s", "(none)")).toBe("none");
    expect(expectationValue("latency_budget_us", "wire 12.0 us (1 GbE); server 100.0 us (filer)")).toBe("wire 12.0 µs (1 GbE); server 100.0 µs (filer)");
  });
});

describe("a change in words", () => {
  it("never shows a raw key for the items of a revision diff", () => {
    const words = [
      changeWords(change({ item: "platform", key: "oracle.workload", before: "oltp", after: "dss" }), CATALOG),
      changeWords(change({ item: "expectation", key: "planned_scan_mb_s", before: "117.0", after: "(none)" })),
      changeWords(change({ item: "plan", key: "kb_version", before: "2026.10.0", after: "2026.11.0" })),
      changeWords(change({ item: "check", key: "host: rsize of the data mount", check: { where: "host", what: "rsize of the data mount" }, before: "nfsstat -m (expect: 32768)", after: "nfsstat -m (expect: 65536)" })),
    ];
    expect(words).toEqual([
      { name: "Workload", before: "OLTP (transactions)", after: "DSS (scans, reporting)" },
      { name: "Planned scan throughput", before: "117 MB/s", after: "none" },
      { name: "Knowledge base release", before: "2026.10.0", after: "2026.11.0" },
      { name: "rsize of the data mount", before: "nfsstat -m (expect: 32768)", after: "nfsstat -m (expect: 65536)" },
    ]);
  });

  it("has no before for something new and no after for something removed", () => {
    const added = change({ kind: "added", item: "setting", key: "filer nvfail [prod_data]", after: "on", setting: { target: "filer", name: "nvfail", volumes: ["prod_data"], scope: null } });
    expect(changeWords(added)).toEqual({ name: "nvfail", before: null, after: "on" });
    const removed = change({ kind: "removed", item: "finding", key: "NET-TCP-WINDOW-BDP: The window is small.", finding: { rule: "NET-TCP-WINDOW-BDP", message: "The window is small." }, before: "warning" });
    expect(changeWords(removed)).toEqual({ name: "The window is small.", before: "warning", after: null });
  });
});

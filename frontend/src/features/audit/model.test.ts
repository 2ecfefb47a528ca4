import { describe, expect, it } from "vitest";
import { DEFAULT_DRAFT, toPlatform } from "../../lib/draft";
import type { Catalog } from "../../api/client";
import {
  type AuditReport,
  againstDesign,
  applyAnswers,
  applySuggestion,
  auditBody,
  byFile,
  byLine,
  counts,
  kindLabels,
  lineCounts,
  omissions,
  toMarkdown,
} from "./model";

const REPORT: AuditReport = {
  kb_version: "2026.12.1",
  as_of: "2026-11-24",
  findings: [
    { severity: "warning", rule: "MNT-NOINTR", message: "intr where the plan has nointr.", file: "fstab", line: 3, fix: "a\tb", applies_with: "remount", related_rules: [] },
    { severity: "error", rule: "NFS-V3-TCP", message: "proto=udp where the plan has proto=tcp.", file: "fstab", line: 3, fix: "a`b", applies_with: "remount", related_rules: [] },
    { severity: "info", rule: "DNFS-ENABLE", message: "note", file: "sysctl", line: null, fix: null, applies_with: null, related_rules: [] },
  ],
  checked: { fstab: 3 },
  ignored_lines: { fstab: [1, 2] },
  assignments: [],
  not_checked: ["/u04/oraarch (archive): no pasted line carries these files"],
  score: 33,
  corrected: {},
  findings_omitted: 0,
  assignments_omitted: 0,
};

describe("audit model", () => {
  it("groups findings by file, errors first", () => {
    const groups = byFile(REPORT);
    expect(groups.map(([file]) => file)).toEqual(["fstab", "sysctl"]);
    expect(groups[0]?.[1].map((f) => f.severity)).toEqual(["error", "warning"]);
    expect(counts(REPORT)).toEqual({ error: 1, warning: 1, info: 1 });
  });

  it("puts one line's findings together: one thing to act on, the rule of each, one fix", () => {
    const [fstab] = byFile(REPORT);
    const lines = byLine(fstab?.[1] ?? []);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.severity).toBe("error");
    expect(lines[0]?.findings.map((f) => f.rule)).toEqual(["NFS-V3-TCP", "MNT-NOINTR"]);
    expect(lines[0]?.fix).toBe("a`b");
    // Lines to act on: one line with an error, one note about no line.
    expect(lineCounts(REPORT)).toEqual({ error: 1, warning: 0, info: 1 });
    expect(lineCounts({ ...REPORT, line_counts: { error: 7 } })).toEqual({ error: 7, warning: 0, info: 0 });
  });

  it("counts what a capped answer leaves out, and says so", () => {
    const capped: AuditReport = {
      ...REPORT,
      severity_counts: { error: 4, warning: 700 },
      findings_omitted: 702,
      corrected_omitted: ["fstab"],
    };
    expect(counts(capped)).toEqual({ error: 4, warning: 700, info: 0 });
    expect(omissions(REPORT)).toEqual([]);
    const notes = omissions(capped);
    expect(notes[0]).toContain("Only the first 3 findings are listed");
    expect(notes[0]).toContain("702 more");
    expect(notes[1]).toContain("No corrected copy of fstab");
    expect(toMarkdown(capped)).toContain("> Only the first 3 findings are listed");
  });

  it("writes Markdown that a backtick in a fix cannot break", () => {
    const md = toMarkdown(REPORT);
    expect(md).toContain("Score: 33%. Lines to act on: 1 with errors, 0 with warnings, 1 with notes.");
    expect(md).toContain("- **ERROR** line 3\n  - error (NFS-V3-TCP): proto=udp where the plan has proto=tcp.");
    expect(md).toContain("  - warning (MNT-NOINTR): intr where the plan has nointr.");
    expect(md).toContain("  - use: `a'b` (needs: remount)");
    expect(md).toContain("## Not checked");
  });

  it("sends only pastes with text, named, and the roles as lists", () => {
    const body = auditBody(
      toPlatform(DEFAULT_DRAFT),
      [
        { id: 1, name: "", kind: "auto", text: "x y nfs rw 0 0" },
        { id: 2, name: "empty", kind: "fstab", text: "  " },
      ],
      { "/backup": "other" },
    );
    expect(body.pastes).toEqual([{ name: "paste 1", kind: "auto", text: "x y nfs rw 0 0" }]);
    expect(body.roles).toEqual({ "/backup": ["other"] });
  });

  it("applies a suggestion from the pastes and keeps dependent answers valid", () => {
    const catalog = {
      os: {
        solaris: { label: "Solaris", arches: ["sparc"], releases: [{ id: "9u5", label: "Solaris 9" }, { id: "10", label: "Solaris 10" }] },
      },
    } as unknown as Catalog;
    const reason = "because";
    const solaris = applySuggestion(DEFAULT_DRAFT, { field: "host.os", value: "solaris", label: "Solaris", reason }, catalog);
    expect(solaris.host).toMatchObject({ os: "solaris", os_version: "10", arch: "sparc" });
    expect(DEFAULT_DRAFT.host.os).toBe("linux");
    const oracle = applySuggestion(DEFAULT_DRAFT, { field: "oracle.version", value: "10.2.0.5", label: "10gR2", reason }, catalog);
    expect(oracle.oracle.version).toBe("10.2.0.5");
    const filer = applySuggestion(DEFAULT_DRAFT, { field: "filer.os_version", value: "8.2", label: "7-mode 8.2", reason }, catalog);
    expect(filer.filer.os_version).toBe("8.2");
  });
});

describe("applyAnswers", () => {
  it("puts what the host showed into the draft, and leaves out what the catalog does not offer", () => {
    const catalog = {
      os: {
        aix: { label: "AIX", arches: ["power"], releases: [{ id: "7.2", label: "AIX 7.2" }, { id: "7.3", label: "AIX 7.3" }] },
        linux: { label: "Linux", arches: ["x86_64"], releases: [{ id: "ol9", label: "OL 9" }] },
      },
      network: { nic_speeds: [{ gbps: 10, label: "10GbE" }, { gbps: 25, label: "25GbE" }] },
      filers: {
        netapp: { families: [{ id: "ontap7", known: ["8.1", "8.2"] }, { id: "ontap_cluster", known: ["9.14.1"] }] },
      },
    } as unknown as Catalog;
    const answer = (field: string, value: string | number | boolean) => ({ field, value, label: "", evidence: "" });
    const next = applyAnswers(
      DEFAULT_DRAFT,
      [
        answer("host.os", "aix"),
        answer("host.os_version", "7.2"),
        answer("oracle.version", "19.3"),
        answer("oracle.dnfs", false),
        answer("network.jumbo_frames", true),
        answer("network.nic_gbps", 100),
      ],
      catalog,
    );
    expect(next.host).toMatchObject({ os: "aix", os_version: "7.2", arch: "power" });
    expect(next.oracle).toMatchObject({ version: "19.3", dnfs: false });
    expect(next.network.jumbo_frames).toBe(true);
    expect(next.network.nic_gbps).toBe(DEFAULT_DRAFT.network.nic_gbps); // no 100 Gb/s choice here
    expect(applyAnswers(DEFAULT_DRAFT, [answer("host.os_version", "9.9")], catalog).host.os_version).toBe(
      DEFAULT_DRAFT.host.os_version,
    );
    // The filer family the export paths show: the vendor, then a release the catalog knows.
    const filer = applyAnswers(DEFAULT_DRAFT, [answer("filer.vendor", "netapp"), answer("filer.os_version", "8.2")], catalog);
    expect(filer.filer).toMatchObject({ vendor: "netapp", os_version: "8.2" });
    expect(applyAnswers(DEFAULT_DRAFT, [answer("filer.os_version", "6.9")], catalog).filer.os_version).toBe(
      DEFAULT_DRAFT.filer.os_version,
    );
    expect(applyAnswers(DEFAULT_DRAFT, [answer("filer.vendor", "acme")], catalog).filer.vendor).toBe("netapp");
  });
});

describe("kindLabels", () => {
  it("offers recognition first, then each kind the catalog serves, in its words", () => {
    const catalog = { file_kinds: [{ id: "fstab", label: "/etc/fstab (Linux, HP-UX)" }, { id: "init.ora", label: "init.ora / pfile" }] } as Catalog;
    expect(Object.entries(kindLabels(catalog))).toEqual([
      ["auto", "Recognise it"],
      ["fstab", "/etc/fstab (Linux, HP-UX)"],
      ["init.ora", "init.ora / pfile"],
    ]);
  });
});

describe("againstDesign", () => {
  it("says where the host as collected differs from the saved design", () => {
    const answer = (field: string, value: string | number | boolean) => ({ field, value, label: String(value), evidence: "e" });
    const draft = { ...DEFAULT_DRAFT, oracle: { ...DEFAULT_DRAFT.oracle, version: "19.21" }, network: { ...DEFAULT_DRAFT.network, nic_gbps: "25", jumbo_frames: true } };
    const rows = againstDesign(draft, [
      answer("host.os", draft.host.os),
      answer("oracle.version", "19.21.0.0"),
      answer("network.nic_gbps", 10),
      answer("network.jumbo_frames", false),
    ]);
    expect(rows.map((r) => [r.answer.field, r.agrees, r.design])).toEqual([
      ["host.os", true, draft.host.os],
      ["oracle.version", true, "19.21"],
      ["network.nic_gbps", false, "25 Gb/s"],
      ["network.jumbo_frames", false, "jumbo frames"],
    ]);
  });
});

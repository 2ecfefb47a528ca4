import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Catalog, Change, Schemas } from "../../api/client";
import { RevisionDiff } from "./RevisionDiff";
import { changeSection, diffLineKind, diffSections, type FileDiff, fileSection, lineCounts } from "./revisionDiff";

function change(partial: Partial<Change> & Pick<Change, "item" | "key">): Change {
  return { kind: "changed", before: null, after: null, rules_before: [], rules_after: [], reason: "", added_tokens: [], removed_tokens: [], shifts: [], setting: null, ...partial };
}

const WORKLOAD = change({ item: "platform", key: "oracle.workload", answer: { field: "oracle.workload", number: null }, before: "oltp", after: "dss", reason: "platform answer changed" });
const TRANSFER = change({ item: "expectation", key: "transfer_bytes", before: "32768", after: "65536" });
const DATA_MOUNT = change({
  item: "mount",
  key: "data /u02/oradata/PROD",
  mount: { serves: ["data"], mount_point: "/u02/oradata/PROD" },
  before: "filer01:/vol/prod_data rw,bg,hard,rsize=32768,wsize=32768",
  after: "filer01:/vol/prod_data rw,bg,hard,rsize=65536,wsize=65536",
  removed_tokens: ["rsize=32768", "wsize=32768"],
  added_tokens: ["rsize=65536", "wsize=65536"],
});
const MINRA = change({ item: "setting", key: "filer minra [prod_data]", before: "on", after: "off", setting: { target: "filer", name: "minra", volumes: ["prod_data"], scope: null } });
const WINDOW = change({ kind: "added", item: "finding", key: "NET-TCP-WINDOW-BDP: The window is small.", finding: { rule: "NET-TCP-WINDOW-BDP", message: "The window is small." }, after: "warning", rules_after: ["NET-TCP-WINDOW-BDP"] });
const NO_DATA_CHECK = change({ kind: "removed", item: "check", key: "switch: flow control", check: { where: "switch", what: "flow control" }, before: "show int (expect: off)" });

const MOUNTS_SH: FileDiff = {
  path: "host/mounts.sh",
  status: "changed",
  lines: [
    "--- revision 1/host/mounts.sh",
    "+++ revision 2/host/mounts.sh",
    "@@ -130,3 +130,3 @@",
    " # BEGIN nasplan PROD",
    "-filer01:/vol/prod_data\t-\t/u02/oradata/PROD\tnfs\t-\tyes\trw,bg,hard,rsize=32768,wsize=32768",
    "+filer01:/vol/prod_data\t-\t/u02/oradata/PROD\tnfs\t-\tyes\trw,bg,hard,rsize=65536,wsize=65536",
  ],
  lines_left_out: 0,
};
const ALTER_SYSTEM: FileDiff = {
  path: "oracle/alter_system.sql",
  status: "changed",
  lines: ["--- revision 1/oracle/alter_system.sql", "+++ revision 2/oracle/alter_system.sql", "@@ -1,2 +1,1 @@", "--- an old SQL comment", " ALTER SYSTEM SET x=1;"],
  lines_left_out: 12,
};

describe("the revision diff by team", () => {
  it("puts each change with the team that acts on it", () => {
    expect([WORKLOAD, TRANSFER, DATA_MOUNT, MINRA, NO_DATA_CHECK].map(changeSection)).toEqual(["answers", "everyone", "sysadmin", "storage", "network"]);
  });

  it("puts each bundle file with the team that runs it", () => {
    const paths = [
      "filer/commands.txt",
      "terraform/main.tf.json",
      "ansible/filer.yml",
      "verify/filer_checks.txt",
      "rollback/filer_rollback.txt",
      "host/mounts.sh",
      "ansible/site.yml",
      "verify/verify_host.sh",
      "verify/collect.sh",
      "rollback/host_rollback.sh",
      "oracle/alter_system.sql",
      "verify/verify_oracle.sql",
      "rollback/oracle_rollback.sql",
      "RUNBOOK.md",
      "plan.json",
      "verify/check_bundle.sh",
    ];
    expect(paths.map(fileSection)).toEqual([
      ...Array<string>(5).fill("storage"),
      ...Array<string>(5).fill("sysadmin"),
      ...Array<string>(3).fill("database"),
      ...Array<string>(3).fill("everyone"),
    ]);
  });

  it("orders the sections answers, teams, everyone, and leaves out empty ones", () => {
    const sections = diffSections([TRANSFER, MINRA, WORKLOAD], [MOUNTS_SH]);
    expect(sections.map((s) => [s.id, s.changes.length, s.files.length])).toEqual([
      ["answers", 1, 0],
      ["storage", 1, 0],
      ["sysadmin", 0, 1],
      ["everyone", 1, 0],
    ]);
  });

  it("reads a diff's lines by their first characters, its header by place", () => {
    expect(ALTER_SYSTEM.lines.map(diffLineKind)).toEqual(["header", "header", "hunk", "removed", "same"]);
    expect(lineCounts(ALTER_SYSTEM)).toEqual({ added: 0, removed: 1 });
    expect(lineCounts(MOUNTS_SH)).toEqual({ added: 1, removed: 1 });
  });
});

const CATALOG = { os: {}, network: { nic_speeds: [], switch_kinds: [] }, workloads: [{ id: "oltp", label: "OLTP (transactions)" }, { id: "dss", label: "DSS (scans, reporting)" }], nfs_versions: [], filers: {} } as unknown as Catalog;

function render(changes: Change[], files: Schemas["RevisionFilesDiff"]): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(["catalog"], CATALOG);
  client.setQueryData(["design", "d1", "diff", "1", "2"], { design_id: "d1", from_revision: 1, to_revision: 2, changes });
  client.setQueryData(["design", "d1", "diff", "files", "1", "2"], files);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(RevisionDiff, { designId: "d1", numbers: [1, 2] })));
}

function text(html: string): string {
  return html.replace(/<span class="sr-only">[^<]*<\/span>/g, "").replace(/<[^>]+>/g, "").replace(/&gt;/g, ">");
}

describe("the revision diff on the page", () => {
  const files = { design_id: "d1", from_revision: 1, to_revision: 2, files: [MOUNTS_SH, ALTER_SYSTEM], stamp_only: ["filer/commands.txt"], not_compared: ["README.md"] };
  const html = render([WORKLOAD, TRANSFER, DATA_MOUNT, MINRA, WINDOW], files);
  const out = text(html);

  it("says every change in plain words, grouped by team", () => {
    expect(out).toContain("Revision 1 → revision 2: 5 changes, 2 files differ.");
    expect(out).toContain("newThe window is small. (warning)");
    expect(out).toContain("Workload: OLTP (transactions) → DSS (scans, reporting)");
    expect(out).toContain("Bytes per read on the wire: 32,768 bytes (32 KiB) → 65,536 bytes (64 KiB)");
    expect(out).toContain("Mount /u02/oradata/PROD (data)");
    expect(out).toContain("minra (filer, volume prod_data): on → off");
    for (const raw of ["oracle.workload", "transfer_bytes", "platform answer changed"]) expect(out).not.toContain(raw);
    const order = ["Answers changed", "Storage", "System administration", "Database", "Everyone"].map((title) => out.indexOf(`${title} —`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((at) => at >= 0)).toBe(true);
  });

  it("folds each file under its path, lines marked and unwrapped", () => {
    expect(html).toMatch(/<details[^>]*><summary[^>]*><code[^>]*>host\/mounts\.sh<\/code>/);
    expect(html).toContain('tabindex="0" aria-label="Differences in host/mounts.sh"');
    expect(html).toMatch(/<pre[^>]*class="[^"]*overflow-x-auto/);
    expect(html).toMatch(/<span class="block px-2 bg-green-50 text-green-950">\+filer01:\/vol\/prod_data\t-\t\/u02\/oradata\/PROD[^<]*rsize=65536/);
    expect(html).toMatch(/<span class="block px-2 bg-red-50 text-red-950">-filer01:[^<]*rsize=32768/);
    expect(out).toContain("1 line added, 1 removed");
    expect(out).toContain("Not shown, to keep the page small: 12 more lines of this comparison.");
    expect(out).toContain("1 other file differs only in the revision number");
  });

  it("says when nothing changed", () => {
    const same = text(render([], { ...files, files: [], stamp_only: [] }));
    expect(same).toContain("Nothing changed from revision 1 to revision 2.");
    expect(same).not.toContain("Answers changed");
  });
});

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Change } from "../../api/client";
import { errorCount, errorFindings } from "../../components/AcknowledgeErrors";
import { ChangesList, ChangesStory } from "./TimeTravel";

function change(partial: Partial<Change> & Pick<Change, "item" | "key">): Change {
  return { kind: "changed", before: null, after: null, rules_before: [], rules_after: [], reason: "", added_tokens: [], removed_tokens: [], shifts: [], setting: null, ...partial };
}

/** The list as the page renders it; answers get the catalog's words once it is loaded, and here
 * it never is (no server), so choices read as the words this module knows. */
function markup(element: ReactElement): string {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

function text(changes: Change[]): string {
  const html = markup(createElement(ChangesStory, { changes, from: "revision 1", to: "revision 2", error: null }));
  return html.replace(/<span class="sr-only">[^<]*<\/span>/g, "").replace(/<[^>]+>/g, "").replace(/&gt;/g, ">");
}

describe("the list of changes", () => {
  it("names platform answers and expectations with their values", () => {
    const out = text([
      change({ item: "platform", key: "network.nic_gbps", before: "25", after: "10", reason: "platform answer changed" }),
      change({ item: "expectation", key: "single_stream_mb_s", before: "1166.2", after: "744.8" }),
      change({ item: "plan", key: "kb_version", before: "2026.10.0", after: "2026.11.0" }),
    ]);
    expect(out).toContain("NIC speed: 25 Gb/s → 10 Gb/s");
    expect(out).toContain("One serial stream (one request at a time): 1,166.2 MB/s → 744.8 MB/s");
    expect(out).not.toContain("network.nic_gbps");
    expect(out).toContain("plan kb_version: 2026.10.0 → 2026.11.0");
  });

  it("shows a mount's option changes token by token", () => {
    const out = text([
      change({
        item: "mount",
        key: "data /u02/oradata/PROD",
        before: "filer01:/vol/prod_data rw,bg,hard,intr",
        after: "filer01:/vol/prod_data rw,bg,hard,nointr",
        removed_tokens: ["intr"],
        added_tokens: ["nointr"],
      }),
    ]);
    // A swapped option reads as one edit; the signs stay for assistive tech only.
    expect(out).toContain("intr → nointr");
    expect(out).not.toContain("−intr");
    // The export did not change: it is not repeated as a change.
    expect(out).not.toContain("filer01:/vol/prod_data → filer01:/vol/prod_data");
  });

  it("shows what an added item is, and an empty expectation as none", () => {
    const out = text([
      change({ kind: "added", item: "setting", key: "oracle filesystemio_options", after: "setall" }),
      change({ item: "expectation", key: "improvements", before: "10GbE", after: "" }),
    ]);
    expect(out).toContain("added setting oracle filesystemio_options: setall");
    expect(out).toContain("What would improve it: 10GbE → none");
  });
});

describe("error findings", () => {
  it("counts only errors", () => {
    const findings = [
      { severity: "error" as const, rule: "DNFS-REQUIRES-11G", message: "no dNFS", related_rules: [] },
      { severity: "warning" as const, rule: "NET-JUMBO-HOST-MTU", message: "mtu", related_rules: [] },
    ];
    expect(errorFindings(findings).map((f) => f.rule)).toEqual(["DNFS-REQUIRES-11G"]);
    expect(errorCount(1)).toBe("1 error finding");
    expect(errorCount(2)).toBe("2 error findings");
  });
});

describe("long values and findings", () => {
  it("puts long values one above the other and a finding's message as text", () => {
    const html = markup(
      createElement(ChangesStory, {
        changes: [
          change({ item: "expectation", key: "bottleneck", before: "Round-trip latency: ".repeat(3), after: "Wire time: ".repeat(6) }),
          change({ kind: "added", item: "finding", key: "NET-TCP-WINDOW-BDP: The window is small.", finding: { rule: "NET-TCP-WINDOW-BDP", message: "The window is small." }, after: "warning" }),
        ],
        from: "a",
        to: "b",
        error: null,
      }),
    );
    expect(html).toContain("<dt");
    // The message reads as text; the rule id waits in the folded "Rules".
    expect(html).toContain("finding</span> The window is small. (warning)");
    expect(html).toMatch(/<details[^>]*><summary[^>]*>Rules<\/summary>.*NET-TCP-WINDOW-BDP/s);
  });
});

describe("the story", () => {
  const minra = change({
    item: "setting",
    key: "filer minra [prod_data]",
    before: "on",
    after: "off",
    rules_before: ["NTAP-MINRA-ON-OLTP"],
    rules_after: ["NTAP-MINRA-OFF"],
    reason:
      "NTAP-MINRA-ON-OLTP superseded by NTAP-MINRA-OFF (2009-05-01): Data ONTAP 6.5.1 rewrote the read-ahead logic to detect access patterns itself.",
    shifts: [
      {
        rule: "NTAP-MINRA-ON-OLTP",
        shift: "superseded",
        by: ["NTAP-MINRA-OFF"],
        on: "2009-05-01",
        why: "Data ONTAP 6.5.1 rewrote the read-ahead logic to detect access patterns itself.",
      },
    ],
    setting: { target: "filer", name: "minra", volumes: ["prod_data"], scope: null },
  });
  const nvfail = change({
    kind: "added",
    item: "setting",
    key: "filer nvfail [prod_arch, prod_data, prod_redo]",
    after: "on",
    rules_after: ["NTAP7-NFS-V3-NVFAIL"],
    reason: "NTAP7-NFS-V3-NVFAIL now applies (in effect from 2006-09-01)",
    shifts: [{ rule: "NTAP7-NFS-V3-NVFAIL", shift: "now_applies", by: [], on: "2006-09-01", why: null }],
    setting: { target: "filer", name: "nvfail", volumes: ["prod_arch", "prod_data", "prod_redo"], scope: null },
  });

  it("puts reversed advice first and keeps rule ids out of the visible sentences", () => {
    const html = markup(createElement(ChangesStory, { changes: [nvfail, minra], from: "2005-06-01", to: "", error: null }));
    const visible = html.replace(/<details.*?<\/details>/gs, "").replace(/<span class="sr-only">[^<]*<\/span>/g, "").replace(/<[^>]+>/g, "");
    expect(visible.indexOf("minra on → off, since May 2009")).toBeGreaterThan(-1);
    expect(visible.indexOf("minra on → off")).toBeLessThan(visible.indexOf("nvfail"));
    expect(visible).toContain("Data ONTAP 6.5.1 rewrote the read-ahead logic");
    expect(visible).toContain("new advice since September 2006");
    expect(visible).not.toMatch(/NTAP7?-/);
    // The e2e test reads the supersession in the region's text: it is there, folded.
    expect(html).toContain("superseded by NTAP-MINRA-OFF");
  });

  it("keeps the e2e's del/ins texts for a key=value swap (designs.spec: −rsize=32768, +rsize=65536)", () => {
    const html = markup(
      createElement(ChangesStory, {
        changes: [
          change({
            item: "mount",
            key: "data /u02/oradata/PROD",
            before: "filer01:/vol/prod_data rw,bg,hard,nointr,rsize=32768,wsize=32768,vers=3",
            after: "filer01:/vol/prod_data rw,bg,hard,nointr,rsize=65536,wsize=65536,vers=3",
            removed_tokens: ["rsize=32768", "wsize=32768"],
            added_tokens: ["rsize=65536", "wsize=65536"],
          }),
        ],
        from: "revision 1",
        to: "revision 2",
        error: null,
      }),
    );
    const texts = (tag: string) => [...html.matchAll(new RegExp(`<${tag}[^>]*>(.*?)</${tag}>`, "g"))].map((m) => (m[1] ?? "").replace(/<[^>]+>/g, ""));
    expect(texts("del")).toEqual(["removed option −rsize=32768", "removed option −wsize=32768"]);
    expect(texts("ins")).toEqual([", added option +rsize=65536", ", added option +wsize=65536"]);
    expect(text([change({ item: "mount", key: "k", before: "e rsize=32768", after: "e rsize=65536" })])).toContain("rsize=32768 → rsize=65536");
  });

  it("chips wrap instead of overflowing", () => {
    const html = markup(
      createElement(ChangesStory, {
        changes: [change({ item: "mount", key: "data /u02", before: "f:/v rw,intr", after: "f:/v rw,nointr,suid", removed_tokens: ["intr"], added_tokens: ["nointr", "suid"] })],
        from: "a",
        to: "b",
        error: null,
      }),
    );
    expect(html).toMatch(/<ul aria-label="Option changes on data \/u02" class="[^"]*flex-wrap/);
    expect(html).toContain("wrap-anywhere");
  });

  it("renders inside a query client (the explanations load in the background)", () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const html = markup(
      createElement(QueryClientProvider, { client }, createElement(ChangesList, { changes: [minra], from: "2005-06-01", to: "", error: null })),
    );
    expect(html).toContain("Advice reversed");
    expect(html).toContain("since May 2009");
  });
});

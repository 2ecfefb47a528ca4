import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Change } from "../../api/client";
import { errorCount, errorFindings } from "../../components/AcknowledgeErrors";
import { ChangesList } from "./TimeTravel";

function change(partial: Partial<Change> & Pick<Change, "item" | "key">): Change {
  return { kind: "changed", before: null, after: null, rules_before: [], rules_after: [], reason: "", added_tokens: [], removed_tokens: [], ...partial };
}

function text(changes: Change[]): string {
  const html = renderToStaticMarkup(createElement(ChangesList, { changes, from: "revision 1", to: "revision 2", error: null }));
  return html.replace(/<span class="sr-only">[^<]*<\/span>/g, "").replace(/<[^>]+>/g, "").replace(/&gt;/g, ">");
}

describe("the list of changes", () => {
  it("names platform answers and expectations with their values", () => {
    const out = text([
      change({ item: "platform", key: "network.nic_gbps", before: "25", after: "10", reason: "platform answer changed" }),
      change({ item: "expectation", key: "single_stream_mb_s", before: "1166.2", after: "744.8" }),
      change({ item: "plan", key: "kb_version", before: "2026.10.0", after: "2026.11.0" }),
    ]);
    expect(out).toContain("platform network.nic_gbps: 25 → 10");
    expect(out).toContain("expectation single_stream_mb_s: 1166.2 → 744.8");
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
    expect(out).toContain("−intr");
    expect(out).toContain("+nointr");
    // The export did not change: it is not repeated as a change.
    expect(out).not.toContain("filer01:/vol/prod_data → filer01:/vol/prod_data");
  });

  it("shows what an added item is, and an empty value as (none)", () => {
    const out = text([
      change({ kind: "added", item: "setting", key: "oracle filesystemio_options", after: "setall" }),
      change({ item: "expectation", key: "improvements", before: "10GbE", after: "" }),
    ]);
    expect(out).toContain("added setting oracle filesystemio_options: setall");
    expect(out).toContain("improvements: 10GbE → (none)");
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
    const html = renderToStaticMarkup(
      createElement(ChangesList, {
        changes: [
          change({ item: "expectation", key: "bottleneck", before: "Round-trip latency: ".repeat(3), after: "Wire time: ".repeat(6) }),
          change({ kind: "added", item: "finding", key: "NET-TCP-WINDOW-BDP: The window is small.", after: "warning" }),
        ],
        from: "a",
        to: "b",
        error: null,
      }),
    );
    expect(html).toContain("<dt");
    expect(html).toContain("<code class=\"text-xs\">NET-TCP-WINDOW-BDP</code>: The window is small. (warning)");
  });
});

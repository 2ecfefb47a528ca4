import { describe, expect, it } from "vitest";
import type { PlanView, Schemas } from "../../api/client";
import { planKeys } from "../../lib/planKeys";
import {
  commentCount,
  decisionWords,
  elementIdOf,
  findingItem,
  identity,
  mountItem,
  optionItem,
  planItems,
  reviewsByItem,
  settingItem,
  wordsOfRef,
} from "./planItems";

// Copied from a real saved design (TR-3322 lab preset), trimmed to what the items read.
const OPTION_RULES = { rw: ["MNT-RW-BG-HARD"], hard: ["MNT-RW-BG-HARD"], forcedirectio: ["SOL-MNT-FORCEDIRECTIO-DATA"] };
const DATA: Schemas["Mount"] = {
  role: "data",
  serves: ["data"],
  volume: "prod_data",
  mount_point: "/u02/oradata/PROD",
  export: "filer01:/vol/prod_data",
  options: ["rw", "hard", "forcedirectio"],
  rules: ["MNT-RW-BG-HARD", "SOL-MNT-FORCEDIRECTIO-DATA"],
  option_rules: OPTION_RULES,
};
const REDO: Schemas["Mount"] = {
  ...DATA,
  role: "redo",
  serves: ["redo", "control"],
  volume: "prod_redo",
  mount_point: "/u03/oralog/PROD",
  export: "filer01:/vol/prod_redo",
  option_rules: { ...OPTION_RULES, forcedirectio: ["SOL-MNT-FORCEDIRECTIO-REDO"] },
};
const MINRA: Schemas["Setting"] = {
  target: "filer", key: "minra", value: "off", action: "set", mechanism: "ontap7_vol_option", applies_to: ["prod_data"], requires: "online", scope: null, rules: ["NTAP-MINRA-OFF"], at_least: false,
};
const HIWAT: Schemas["Setting"] = {
  target: "host", key: "tcp_xmit_hiwat", value: "65536", action: "set", mechanism: "ndd", applies_to: [], requires: "online", scope: "/dev/tcp", rules: ["SOL-TCP-HIWAT-64K"], at_least: false,
};
const LIFECYCLE: Schemas["Finding"] = {
  severity: "warning",
  rule: "COMPAT-VENDOR-LIFECYCLE",
  message: "Oracle9i Release 2 (9.2) is past the end of Oracle's Extended Support (July 2010): on 2026-11-27 the vendor no longer fixes it.",
  related_rules: [],
};
const REVERSAL: Schemas["Finding"] = {
  severity: "info",
  rule: "MNT-NOINTR",
  message: "Advice changed on 2011-01-01: “Interruptible hard mounts on Solaris (2004 advice)” was replaced.",
  related_rules: ["MNT-INTR-2004"],
};
const PLAN = {
  mounts: [DATA, REDO],
  settings: [MINRA, HIWAT],
  findings: [LIFECYCLE, REVERSAL],
  summary: { reversals: [REVERSAL.message] },
  // As the server serves them (renderers/plan_view.py), in the order of the lists.
  item_keys: {
    mounts: ["data /u02/oradata/PROD", "redo+control /u03/oralog/PROD"],
    settings: ["filer minra [prod_data]", "host tcp_xmit_hiwat (/dev/tcp)"],
    findings: [`COMPAT-VENDOR-LIFECYCLE: ${LIFECYCLE.message}`, `${REVERSAL.rule}: ${REVERSAL.message}`],
  },
} as unknown as PlanView;
const KEYS = planKeys(PLAN);

function review(id: number, item: Schemas["ReviewItem"] | null, decision: Schemas["ReviewOut"]["decision"] = "comment"): Schemas["ReviewOut"] {
  return { id, revision: 1, reviewer: "Ann", decision, comment: `c${id}`, item_rule: null, item, created_at: "2026-11-27T13:04:00Z", imported: false, errors_acknowledged: false };
}

describe("plan items take the key the server serves beside each item (item_keys)", () => {
  it("names a mount by the roles it serves and its mount point, decided by its first rule", () => {
    const item = mountItem(REDO, KEYS.mount(REDO));
    expect(item.ref).toEqual({ kind: "mount", key: "redo+control /u03/oralog/PROD" });
    expect(item.rule).toBe("MNT-RW-BG-HARD");
    expect(item.words).toBe("mount /u03/oralog/PROD");
  });

  it("names an option by its mount and the option, decided by the rule that put it there", () => {
    const item = optionItem(DATA, KEYS.mount(DATA), "forcedirectio");
    expect(item.ref).toEqual({ kind: "option", key: "data /u02/oradata/PROD", option: "forcedirectio" });
    expect(item.rule).toBe("SOL-MNT-FORCEDIRECTIO-DATA");
    expect(item.words).toBe("mount /u02/oradata/PROD, option 'forcedirectio'");
  });

  it("sends no rule for an option no rule names", () => {
    expect(optionItem({ ...DATA, options: ["rw", "nfs"] }, "", "nfs").rule).toBeNull();
  });

  it("names a setting by where it goes, in the words of the team that applies it", () => {
    expect(settingItem(MINRA, KEYS.setting(MINRA)).ref).toEqual({ kind: "setting", key: "filer minra [prod_data]" });
    expect(settingItem(MINRA, KEYS.setting(MINRA)).words).toBe("filer setting minra on prod_data");
    expect(settingItem(HIWAT, KEYS.setting(HIWAT)).ref).toEqual({ kind: "setting", key: "host tcp_xmit_hiwat (/dev/tcp)" });
    expect(settingItem(HIWAT, KEYS.setting(HIWAT)).words).toBe("host setting tcp_xmit_hiwat in /dev/tcp");
  });

  it("names a finding by its severity and the start of its message", () => {
    const item = findingItem(LIFECYCLE, KEYS.finding(LIFECYCLE));
    expect(item.ref).toEqual({ kind: "finding", key: `COMPAT-VENDOR-LIFECYCLE: ${LIFECYCLE.message}` });
    expect(item.rule).toBe("COMPAT-VENDOR-LIFECYCLE");
    expect(item.words).toBe("warning “Oracle9i Release 2 (9.2) is past the end of Oracle's…”");
    expect(findingItem({ ...LIFECYCLE, severity: "info", message: "Short." }, "").words).toBe("note “Short.”");
  });
});

describe("element ids", () => {
  it("are stable, usable as ids, and differ between items that differ only by mount", () => {
    const onData = optionItem(DATA, KEYS.mount(DATA), "hard");
    const onRedo = optionItem(REDO, KEYS.mount(REDO), "hard");
    expect(onData.elementId).toBe(optionItem(DATA, KEYS.mount(DATA), "hard").elementId);
    expect(onData.elementId).not.toBe(onRedo.elementId);
    expect(onData.elementId).not.toBe(mountItem(DATA, KEYS.mount(DATA)).elementId);
    expect(onData.elementId).toMatch(/^plan-item-[0-9a-z]+$/);
    expect(elementIdOf({ kind: "option", key: "data /u02/oradata/PROD", option: "hard" })).toBe(onData.elementId);
  });
});

describe("the items the design page shows", () => {
  it("lists mounts, every option of each, settings and the findings the Findings card shows", () => {
    const items = planItems(PLAN);
    const words = [...items.values()].map((i) => i.words);
    expect(words).toContain("mount /u02/oradata/PROD, option 'hard'");
    expect(words).toContain("mount /u03/oralog/PROD, option 'hard'");
    expect(words).toContain("host setting tcp_xmit_hiwat in /dev/tcp");
    expect(items.size).toBe(2 + 2 * 3 + 2 + 1);
    // A change of advice is shown under At a glance, not as a finding: no item to move to.
    expect(items.has(identity(findingItem(REVERSAL, KEYS.finding(REVERSAL)).ref))).toBe(false);
    expect(items.has(identity(findingItem(LIFECYCLE, KEYS.finding(LIFECYCLE)).ref))).toBe(true);
  });
});

describe("matching reviews to items", () => {
  it("puts each review under exactly its item: the same option on another mount is another item", () => {
    const onDataHard = optionItem(DATA, KEYS.mount(DATA), "hard").ref;
    const onRedoHard = optionItem(REDO, KEYS.mount(REDO), "hard").ref;
    const grouped = reviewsByItem([
      review(1, onDataHard),
      review(2, null),
      review(3, { ...onRedoHard, option: null }),
      review(4, onRedoHard, "request_changes"),
      review(5, { ...onDataHard }),
      review(6, mountItem(DATA, KEYS.mount(DATA)).ref),
    ]);
    expect(grouped.get(identity(onDataHard))?.map((r) => r.id)).toEqual([1, 5]);
    expect(grouped.get(identity(onRedoHard))?.map((r) => r.id)).toEqual([4]);
    expect(grouped.get(identity(mountItem(DATA, KEYS.mount(DATA)).ref))?.map((r) => r.id)).toEqual([6]);
    // A review about the mount is not about its options, and a review without an item is on none.
    expect(grouped.get(identity(mountItem(REDO, KEYS.mount(REDO)).ref))).toBeUndefined();
    expect([...grouped.values()].flat().map((r) => r.id)).not.toContain(2);
  });

  it("words an item the page does not show from the API's name for it", () => {
    expect(wordsOfRef({ kind: "option", key: "redo+control /u03/oralog/PROD", option: "hard" })).toBe("mount /u03/oralog/PROD, option 'hard'");
    expect(wordsOfRef({ kind: "mount", key: "data /u02/oradata/PROD" })).toBe("mount /u02/oradata/PROD");
    expect(wordsOfRef({ kind: "setting", key: "filer minra [prod_data]" })).toBe("setting filer minra [prod_data]");
    expect(wordsOfRef(findingItem(REVERSAL, KEYS.finding(REVERSAL)).ref)).toBe("finding “Advice changed on 2011-01-01: “Interruptible hard mounts on…”");
  });

  it("says what the reviewer did and how many comments there are", () => {
    expect(decisionWords("comment")).toBe("commented");
    expect(decisionWords("request_changes")).toBe("asked for a change");
    expect(commentCount(1)).toBe("1 comment");
    expect(commentCount(3)).toBe("3 comments");
  });
});

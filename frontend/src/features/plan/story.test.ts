import { describe, expect, it } from "vitest";
import type { Change, RuleExplanation } from "../../api/client";
import { editText, headlineText, mountEdits, optionEdits, plainReason, since, storyLines, supersessions, tellStory } from "./story";

// Copied from a real POST /api/v1/plans/compare (EXAMPLE_PLATFORM, 2005-06-01 → 2026-11-24).
const REAL = {
  "dataMount": {
    "kind": "changed",
    "item": "mount",
    "key": "data /u02/oradata/PROD",
    "mount": { "serves": ["data"], "mount_point": "/u02/oradata/PROD" },
    "before": "filer01:/vol/prod_data rw,bg,hard,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,forcedirectio",
    "after": "filer01:/vol/prod_data rw,bg,hard,nointr,rsize=32768,wsize=32768,vers=3,proto=tcp,forcedirectio,suid",
    "rules_before": [
      "MNT-RW-BG-HARD",
      "MNT-INTR-2004",
      "MNT-RWSIZE-32K",
      "NFS-V3-TCP",
      "SOL-MNT-FORCEDIRECTIO-DATA"
    ],
    "rules_after": [
      "MNT-RW-BG-HARD",
      "MNT-NOINTR",
      "MNT-RWSIZE-32K",
      "NFS-V3-TCP",
      "SOL-MNT-FORCEDIRECTIO-DATA",
      "MNT-SUID"
    ],
    "reason": "MNT-INTR-2004 superseded by MNT-NOINTR (2011-01-01): The 2011 per-OS option sets for Solaris, HP-UX and Linux all use nointr, and NetApp's current tables do too: a signal should not abort an Oracle I/O half way.; MNT-NOINTR now applies (in effect from 2011-01-01); MNT-SUID now applies (in effect from 2011-01-01)",
    "added_tokens": [
      "nointr",
      "suid"
    ],
    "removed_tokens": [
      "intr"
    ],
    "shifts": [
      {
        "rule": "MNT-INTR-2004",
        "shift": "superseded",
        "by": [
          "MNT-NOINTR"
        ],
        "on": "2011-01-01",
        "why": "The 2011 per-OS option sets for Solaris, HP-UX and Linux all use nointr, and NetApp's current tables do too: a signal should not abort an Oracle I/O half way."
      },
      {
        "rule": "MNT-NOINTR",
        "shift": "now_applies",
        "by": [],
        "on": "2011-01-01",
        "why": null
      },
      {
        "rule": "MNT-SUID",
        "shift": "now_applies",
        "by": [],
        "on": "2011-01-01",
        "why": null
      }
    ],
    "setting": null
  },
  "minra": {
    "kind": "changed",
    "item": "setting",
    "key": "filer minra [prod_data]",
    "before": "on",
    "after": "off",
    "rules_before": [
      "NTAP-MINRA-ON-OLTP"
    ],
    "rules_after": [
      "NTAP-MINRA-OFF"
    ],
    "reason": "NTAP-MINRA-ON-OLTP superseded by NTAP-MINRA-OFF (2009-05-01): Data ONTAP 6.5.1 rewrote the read-ahead logic to detect access patterns itself, and experience then showed minra on could lower database performance.; NTAP-MINRA-OFF now applies (in effect from 2009-05-01)",
    "added_tokens": [],
    "removed_tokens": [],
    "shifts": [
      {
        "rule": "NTAP-MINRA-ON-OLTP",
        "shift": "superseded",
        "by": [
          "NTAP-MINRA-OFF"
        ],
        "on": "2009-05-01",
        "why": "Data ONTAP 6.5.1 rewrote the read-ahead logic to detect access patterns itself, and experience then showed minra on could lower database performance."
      },
      {
        "rule": "NTAP-MINRA-OFF",
        "shift": "now_applies",
        "by": [],
        "on": "2009-05-01",
        "why": null
      }
    ],
    "setting": {
      "target": "filer",
      "name": "minra",
      "volumes": [
        "prod_data"
      ],
      "scope": null
    }
  },
  "nvfail": {
    "kind": "added",
    "item": "setting",
    "key": "filer nvfail [prod_arch, prod_data, prod_redo]",
    "before": null,
    "after": "on",
    "rules_before": [],
    "rules_after": [
      "NTAP7-NFS-V3-NVFAIL"
    ],
    "reason": "NTAP7-NFS-V3-NVFAIL now applies (in effect from 2006-09-01)",
    "added_tokens": [],
    "removed_tokens": [],
    "shifts": [
      {
        "rule": "NTAP7-NFS-V3-NVFAIL",
        "shift": "now_applies",
        "by": [],
        "on": "2006-09-01",
        "why": null
      }
    ],
    "setting": {
      "target": "filer",
      "name": "nvfail",
      "volumes": [
        "prod_arch",
        "prod_data",
        "prod_redo"
      ],
      "scope": null
    }
  },
  "noteFinding": {
    "kind": "added",
    "item": "finding",
    "key": "OPS-NFS-FAILOVER: A filer take-over can stall NFS for tens of seconds. Hard mounts wait it out; make sure application and cluster time-outs are longer than that.",
    "finding": {
      "rule": "OPS-NFS-FAILOVER",
      "message": "A filer take-over can stall NFS for tens of seconds. Hard mounts wait it out; make sure application and cluster time-outs are longer than that."
    },
    "before": null,
    "after": "info",
    "rules_before": [],
    "rules_after": [
      "OPS-NFS-FAILOVER"
    ],
    "reason": "OPS-NFS-FAILOVER now applies (in effect from 2011-01-01)",
    "added_tokens": [],
    "removed_tokens": [],
    "shifts": [
      {
        "rule": "OPS-NFS-FAILOVER",
        "shift": "now_applies",
        "by": [],
        "on": "2011-01-01",
        "why": null
      }
    ],
    "setting": null
  }
} satisfies Record<string, Change>;

// From GET /api/v1/knowledge/explanations (rationales shortened).
const RULES = {
  "NTAP-MINRA-OFF": {
    "id": "NTAP-MINRA-OFF",
    "title": "Leave read-ahead at its default (minra off) from Data ONTAP 6.5.1",
    "category": "filer",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "Data ONTAP 6.5.1 rewrote the read-ahead logic to detect acce…",
    "sources": [
      {
        "id": "tr-3322",
        "title": "Database Performance with NAS: Optimizing Oracle on NFS",
        "locator": "Volume options, note",
        "published": "2009-05-01"
      }
    ],
    "effective_from": "2009-05-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": [
      "NTAP-MINRA-ON-OLTP"
    ]
  },
  "NTAP-MINRA-ON-OLTP": {
    "id": "NTAP-MINRA-ON-OLTP",
    "title": "Minimal read-ahead (minra on) for OLTP volumes",
    "category": "filer",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "The 2004 edition of TR-3322 reasons that OLTP reads are most…",
    "sources": [
      {
        "id": "tr-3322",
        "title": "Database Performance with NAS: Optimizing Oracle on NFS",
        "locator": "Volume options",
        "published": "2004-05-01"
      }
    ],
    "effective_from": "2004-05-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": []
  },
  "MNT-NOINTR": {
    "id": "MNT-NOINTR",
    "title": "Non-interruptible mounts on Solaris, HP-UX and Linux",
    "category": "mount",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "The 2011 per-OS option sets for Solaris, HP-UX and Linux all…",
    "sources": [
      {
        "id": "nfs-slides",
        "title": "NFS for Oracle (slide deck: latency, topology, TCP, mount options)",
        "locator": "NFS mount options",
        "published": "2011-01-01"
      },
      {
        "id": "ntap-odb",
        "title": "Oracle databases on ONTAP",
        "locator": "NFS mount options",
        "published": "2026-01-12"
      }
    ],
    "effective_from": "2011-01-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": [
      "MNT-INTR-2004"
    ]
  },
  "MNT-INTR-2004": {
    "id": "MNT-INTR-2004",
    "title": "Interruptible hard mounts on Solaris (2004 advice)",
    "category": "mount",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "TR-3322's single-instance and RAC option sets for Solaris in…",
    "sources": [
      {
        "id": "tr-3322",
        "title": "Database Performance with NAS: Optimizing Oracle on NFS",
        "locator": "NFS mount options",
        "published": "2004-05-01"
      },
      {
        "id": "tr-3496",
        "title": "Oracle 10g Performance - Protocol Comparison on Sun Solaris 10",
        "locator": "Appendix D, NFS mount options",
        "published": "2006-09-01"
      }
    ],
    "effective_from": "2004-05-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": []
  },
  "MNT-SUID": {
    "id": "MNT-SUID",
    "title": "Allow setuid on Solaris and HP-UX Oracle mounts",
    "category": "mount",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "Several Oracle executables (oracle itself among them) are se…",
    "sources": [
      {
        "id": "nfs-slides",
        "title": "NFS for Oracle (slide deck: latency, topology, TCP, mount options)",
        "locator": "NFS mount options",
        "published": "2011-01-01"
      },
      {
        "id": "ntap-odb",
        "title": "Oracle databases on ONTAP",
        "locator": "NFS mount options",
        "published": "2026-01-12"
      }
    ],
    "effective_from": "2011-01-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": []
  },
  "NTAP7-NFS-V3-NVFAIL": {
    "id": "NTAP7-NFS-V3-NVFAIL",
    "title": "NFSv3 enabled and nvfail on for Oracle volumes (7-mode)",
    "category": "filer",
    "severity": "medium",
    "confidence": "verified",
    "rationale": "TR-3496's filers ran with NFSv3 explicitly enabled and nvfai…",
    "sources": [
      {
        "id": "tr-3496",
        "title": "Oracle 10g Performance - Protocol Comparison on Sun Solaris 10",
        "locator": "Appendix C",
        "published": "2006-09-01"
      }
    ],
    "effective_from": "2006-09-01",
    "date_confidence": "exact",
    "date_note": null,
    "supersedes": []
  }
} satisfies Record<string, RuleExplanation>;

const CONTEXT = { rules: RULES, sourceNames: { "tr-3322": "TR-3322", "tr-3496": "TR-3496" } };

/** The same mount swap on another mount (the compare response has four). */
function otherMount(serves: string, mountPoint: string, exported: string): Change {
  const swap = (line: string | null) => (line ?? "").replace("filer01:/vol/prod_data", exported);
  const key = `${serves} ${mountPoint}`;
  const mount = { serves: [serves], mount_point: mountPoint };
  return { ...REAL.dataMount, key, mount, before: swap(REAL.dataMount.before), after: swap(REAL.dataMount.after) };
}

function mount(before: string, after: string, tokens: { added?: string[]; removed?: string[] } = {}): Change {
  return {
    kind: "changed",
    item: "mount",
    key: "data /u02/oradata/PROD",
    mount: { serves: ["data"], mount_point: "/u02/oradata/PROD" },
    before: `filer01:/vol/prod_data ${before}`,
    after: `filer01:/vol/prod_data ${after}`,
    rules_before: [],
    rules_after: [],
    reason: "same rules, different platform",
    added_tokens: tokens.added ?? [],
    removed_tokens: tokens.removed ?? [],
    shifts: [],
    setting: null,
  };
}

describe("headlines", () => {
  it("says minra on → off, since TR-3322's May 2009 revision", () => {
    const story = tellStory([REAL.minra], CONTEXT);
    expect(story.headlines).toHaveLength(1);
    const [minra] = story.headlines;
    expect(minra && headlineText(minra)).toBe("minra on → off, since TR-3322's May 2009 revision");
    expect(minra?.where).toBe("filer, volume prod_data");
    expect(minra?.why).toMatch(/^Data ONTAP 6\.5\.1 rewrote the read-ahead logic/);
    expect(minra?.rulesBefore).toEqual(["NTAP-MINRA-ON-OLTP"]);
    expect(minra?.rulesAfter).toEqual(["NTAP-MINRA-OFF"]);
    // Rule ids stay out of the sentence.
    expect(minra && headlineText(minra)).not.toMatch(/NTAP-/);
  });

  it("falls back to the date in the reason before the explanations arrive", () => {
    const [minra] = tellStory([REAL.minra]).headlines;
    expect(minra && headlineText(minra)).toBe("minra on → off, since May 2009");
  });

  it("names a new source by its title, without the parenthesis, for an option swap", () => {
    const [swap] = tellStory([REAL.dataMount], CONTEXT).headlines;
    expect(swap && headlineText(swap)).toBe("intr → nointr, since NFS for Oracle (January 2011)");
    expect(swap?.rulesBefore).toEqual(["MNT-INTR-2004"]);
    expect(swap?.rulesAfter).toEqual(["MNT-NOINTR"]);
  });

  it("tells one swap on several mounts once, and the oldest reversal first", () => {
    const changes = [REAL.dataMount, otherMount("archive", "/u04/oraarch/PROD", "filer01:/vol/prod_arch"), REAL.minra];
    const story = tellStory(changes, CONTEXT);
    expect(story.headlines.map(headlineText)).toEqual([
      "minra on → off, since TR-3322's May 2009 revision",
      "intr → nointr, since NFS for Oracle (January 2011)",
    ]);
    expect(story.headlines[1]?.where).toBe("mounts data, archive");
    expect(story.headlines[1]?.changes).toHaveLength(2);
  });

  it("does not make a headline of a key=value change the platform asked for", () => {
    const dss: Change = {
      ...mount("rw,bg,hard,nointr,rsize=32768,wsize=32768", "rw,bg,hard,nointr,rsize=65536,wsize=65536"),
      rules_before: ["MNT-RWSIZE-32K"],
      rules_after: ["MNT-RWSIZE-1M-DSS"],
      reason: "MNT-RWSIZE-32K no longer decides this item; MNT-RWSIZE-1M-DSS now applies (in effect from 2011-01-01)",
      shifts: [
        { rule: "MNT-RWSIZE-32K", shift: "no_longer_decides", by: [], on: null, why: null },
        { rule: "MNT-RWSIZE-1M-DSS", shift: "now_applies", by: [], on: "2011-01-01", why: null },
      ],
    };
    const story = tellStory([dss]);
    expect(story.headlines).toEqual([]);
    expect(story.mounts[0]?.edits.map(editText)).toEqual(["rsize=32768 → rsize=65536", "wsize=32768 → wsize=65536"]);
  });
});

describe("mount options token by token", () => {
  it("swaps intr for nointr and adds suid (real change)", () => {
    expect(mountEdits(REAL.dataMount).map(editText)).toEqual(["intr → nointr", "+suid"]);
  });

  it("shows a removed option with a minus", () => {
    const edits = mountEdits(mount("rw,bg,hard,actimeo=0,vers=3", "rw,bg,hard,vers=3", { removed: ["actimeo=0"] }));
    expect(edits.map(editText)).toEqual(["−actimeo=0"]);
  });

  it("pairs key=value options by key", () => {
    expect(optionEdits(["rw", "rsize=32768", "wsize=32768"], ["rw", "rsize=65536", "wsize=65536"]).map(editText)).toEqual([
      "rsize=32768 → rsize=65536",
      "wsize=32768 → wsize=65536",
    ]);
  });

  it("pairs opposites with and without a no- prefix, and leaves unrelated tokens alone", () => {
    expect(optionEdits(["hard", "intr", "ac", "llock"], ["soft", "nointr", "noac", "forcedirectio"]).map(editText)).toEqual([
      "hard → soft",
      "intr → nointr",
      "ac → noac",
      "+forcedirectio",
      "−llock",
    ]);
  });

  it("uses the server's token lists when the lines are missing", () => {
    const change: Change = { ...REAL.dataMount, before: null, after: null };
    expect(mountEdits(change).map(editText)).toEqual(["intr → nointr", "+suid"]);
  });
});

describe("the rest", () => {
  it("groups what is left by kind, with the reasons in words", () => {
    const story = tellStory([REAL.noteFinding, REAL.nvfail, REAL.minra, REAL.dataMount], CONTEXT);
    expect(story.groups.map((group) => group.title)).toEqual(["Settings", "Findings"]);
    expect(plainReason(REAL.nvfail, CONTEXT)).toBe("new advice since TR-3496 (September 2006)");
    expect(plainReason(REAL.nvfail)).toBe("new advice since September 2006");
    expect(plainReason({ ...REAL.nvfail, reason: "platform answer changed", shifts: [] })).toBe("platform answer changed");
  });

  it("words a what-if's rules as causes, never as dates: both plans have the same date", () => {
    const platform = { ...CONTEXT, cause: "platform" as const };
    expect(plainReason(REAL.nvfail, platform)).toBe("advice that applies to the changed answers");
    expect(plainReason(REAL.nvfail, platform)).not.toMatch(/since|20\d\d/);
    const gone: Change = { ...REAL.nvfail, shifts: [{ rule: "NTAP-NVFAIL-ON", shift: "no_longer_applies", by: [], on: null, why: null }] };
    expect(plainReason(gone, platform)).toBe("advice that no longer applies once the answers changed");
    const [minra] = tellStory([REAL.minra], platform).headlines;
    expect(minra && headlineText(minra)).toBe("minra on → off");
  });

  it("reads the supersessions from the change's shifts, not its sentence", () => {
    expect(supersessions(REAL.dataMount)).toEqual([
      expect.objectContaining({ old: "MNT-INTR-2004", by: ["MNT-NOINTR"], on: "2011-01-01" }),
    ]);
    expect(supersessions(REAL.dataMount)[0]?.why).toMatch(/half way\.$/);
    // The sentence is for people: the story does not read it.
    expect(supersessions({ ...REAL.dataMount, reason: "" })).toEqual(supersessions(REAL.dataMount));
  });

  it("says a revision only when the older rule cites an older copy of the same source", () => {
    expect(since("NTAP-MINRA-OFF", ["NTAP-MINRA-ON-OLTP"], null, CONTEXT)).toBe("since TR-3322's May 2009 revision");
    expect(since("NTAP-MINRA-OFF", [], null, CONTEXT)).toBe("since TR-3322 (May 2009)");
    // Looking back from today to 2005: the 2004 advice is not a revision of the 2009 one.
    expect(since("NTAP-MINRA-ON-OLTP", ["NTAP-MINRA-OFF"], null, CONTEXT)).toBe("since TR-3322 (May 2004)");
  });

  it("puts headlines first, then option edits, then the rest", () => {
    const lines = storyLines(tellStory([REAL.dataMount, REAL.nvfail, REAL.noteFinding, REAL.minra], CONTEXT), CONTEXT);
    expect(lines).toEqual([
      "HEADLINE minra on → off, since TR-3322's May 2009 revision [filer, volume prod_data]",
      "HEADLINE intr → nointr, since NFS for Oracle (January 2011) [mount data]",
      "OPTIONS data /u02/oradata/PROD: intr → nointr +suid",
      "SETTINGS added setting filer nvfail [prod_arch, prod_data, prod_redo]: on — new advice since TR-3496 (September 2006)",
      // OPS-NFS-FAILOVER is not among the explanations given: the date comes from the reason.
      expect.stringMatching(/^FINDINGS added finding A filer take-over can stall NFS .*: info — new advice since January 2011$/),
    ]);
  });
});

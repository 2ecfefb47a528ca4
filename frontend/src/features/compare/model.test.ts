import { describe, expect, it } from "vitest";
import { DEFAULT_DRAFT, decodeDraft } from "../../lib/draft";
import {
  type CompareState,
  apiPatch,
  autoLabel,
  decodeCompare,
  encodeCompare,
  headline,
  locateRefusal,
  quickWhatIfs,
  setAnswer,
  variantErrors,
} from "./model";

const kernel = { ...structuredClone(DEFAULT_DRAFT), oracle: { ...DEFAULT_DRAFT.oracle, dnfs: false } };

describe("the comparison in the URL", () => {
  it("keeps the base in the wizard's format and the variants next to it", () => {
    const state: CompareState = {
      base: kernel,
      design: null,
      variants: [
        { label: "Direct NFS", patch: { "oracle.dnfs": true } },
        { label: "", patch: { "network.nic_gbps": "100", "network.jumbo_frames": false } },
      ],
    };
    const params = encodeCompare(state);
    expect(params.get("oracle.dnfs")).toBe("0");
    expect(params.get("w1.oracle.dnfs")).toBe("1");
    expect(params.get("w2.network.nic_gbps")).toBe("100");
    // The wizard reads the same link as the base.
    expect(decodeDraft(params).oracle.dnfs).toBe(false);
    expect(decodeCompare(params)).toEqual(state);
  });

  it("carries only the design id when the base is a saved design", () => {
    const params = encodeCompare({ base: kernel, design: "abc", variants: [{ label: "", patch: {} }] });
    expect(params.get("design")).toBe("abc");
    expect(params.get("oracle.dnfs")).toBeNull();
    expect(decodeCompare(params).variants).toEqual([{ label: "", patch: {} }]);
  });
});

describe("variants", () => {
  it("drop answers set back to the base's", () => {
    const patch = setAnswer(kernel, { "oracle.dnfs": true }, "oracle.dnfs", false);
    expect(patch).toEqual({});
  });

  it("send typed answers to the API", () => {
    expect(apiPatch(kernel, { "oracle.dnfs": true, "network.nic_count": "3" })).toEqual({
      oracle: { dnfs: true },
      network: { nic_count: 3 },
    });
  });

  it("are named after their changes", () => {
    expect(autoLabel(kernel, { "oracle.dnfs": true, "network.nic_gbps": "100" })).toBe("Direct NFS, 100 GbE");
  });

  it("offer the common what-ifs that apply", () => {
    const base = { ...kernel, network: { ...kernel.network, nic_gbps: "10", jumbo_frames: false, nic_count: "1" } };
    expect(quickWhatIfs(base, { network: { nic_speeds: [{ gbps: 10, label: "" }, { gbps: 25, label: "" }] } } as never).map((q) => q.label)).toEqual([
      "Direct NFS",
      "Jumbo frames",
      "One more path",
      "10 → 25 GbE",
    ]);
  });

  it("check their own answers in the browser", () => {
    const errors = variantErrors(kernel, { label: "", patch: { "network.nic_count": "0" } }, true);
    expect(errors["network.nic_count"]).toMatch(/between 1 and 16/);
  });

  it("refuse labels with control or format characters, as the server does", () => {
    for (const bad of ["a\u0085b", "a\u202eb", "a\u200bb", "a\u001bb", "a\u2028b"]) {
      expect(variantErrors(kernel, { label: bad, patch: {} }, true).label).toBe("use one line of ordinary characters");
    }
    expect(variantErrors(kernel, { label: "10 → 25 GbE, été", patch: {} }, true).label).toBeUndefined();
  });
});

describe("server refusals", () => {
  it("point at the variant's answer in plain words", () => {
    expect(locateRefusal(["body", "variants", 1, "patch", "network", "nic_gbps"], "Input should be 1, 10, 25, 40 or 100")).toEqual({
      variant: 1,
      key: "network.nic_gbps",
      message: "should be 1, 10, 25, 40 or 100",
    });
    expect(locateRefusal(["body", "base", "oracle", "version"], "Value error, Bad release").variant).toBeNull();
    expect(locateRefusal(["body", "variants", 0, "patch", "nonsense"], "Extra inputs are not permitted").key).toBe("");
  });
});

describe("the headline", () => {
  it("compares the large scan when the model has it, as a ratio and with what held it back", () => {
    expect(
      headline([
        { field: "planned_scan_mb_s", base: 415.8, variant: 1176.9 },
        { field: "rtt_us", base: 318, variant: 318 },
        {
          field: "bottleneck",
          base: "One TCP connection: however many requests the kernel NFS client has in flight, …",
          variant: "Link bandwidth: the planned client (Direct NFS over one path) keeps several requests in flight, …",
        },
      ]),
    ).toBe("large scan about 2.8 times as fast: 1.2 GB/s instead of 416 MB/s (the limit was one TCP connection, now link bandwidth)");
    expect(headline([{ field: "planned_scan_mb_s", base: 1176.9, variant: 415.8 }])).toBe(
      "large scan about 2.8 times slower: 416 MB/s instead of 1.2 GB/s",
    );
    expect(headline([{ field: "planned_scan_mb_s", base: 1000, variant: 1200 }])).toBe("large scan about 1.2 GB/s instead of 1.0 GB/s");
  });

  it("never says 'no change' where a source measured one: it says the model does not see it", () => {
    const flat = [{ field: "planned_scan_mb_s", base: 117.7, variant: 117.7 }];
    expect(headline(flat)).toBe("no change in the modelled throughput or round trip");
    expect(headline(flat, 2)).toBe("nasplan's model moves no throughput or round-trip figure for this change; the sources measured one (below)");
  });

  it("falls back to the round trip", () => {
    expect(headline([{ field: "planned_scan_mb_s", base: 100, variant: 100 }, { field: "rtt_us", base: 318, variant: 166.6 }])).toBe(
      "round trip about 167 µs instead of 318",
    );
  });
});

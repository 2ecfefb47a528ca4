import { describe, expect, it } from "vitest";
import type { Catalog } from "../api/client";
import { ANSWER_FIELDS, choiceLabel, choicesOf, fieldAt, fieldsOf, isAsked, openingOf, stepLabel } from "./answerFields";
import { askedIn, DEFAULT_DRAFT, HANDOVER_FIELDS, SIZING_FIELDS, toPlatform } from "./draft";

const field = (path: string) => {
  const found = fieldAt(path);
  if (!found) throw new Error(`no field ${path}`);
  return found;
};

describe("the answer table (knowledge/catalog/fields.yaml)", () => {
  it("gives the wizard its opening answers, in the types the draft keeps", () => {
    expect(DEFAULT_DRAFT.host).toEqual({ os: "linux", os_version: "ol9", arch: "x86_64", memory_gb: "", hostname: "", nic_interface: "" });
    expect(DEFAULT_DRAFT.network.jumbo_frames).toBe(true);
    expect(DEFAULT_DRAFT.network.nic_gbps).toBe("25");
    expect(DEFAULT_DRAFT.oracle.bits).toBe("64");
    expect(openingOf(field("oracle.rac"))).toBe(false);
    expect(SIZING_FIELDS).toContain("crs_gb");
    expect(HANDOVER_FIELDS).toEqual(expect.arrayContaining(["svm", "cluster_nodes", "p1_host_address", "p4_filer_address"]));
  });

  it("labels an answer in its step with its unit, or by its shorter name", () => {
    expect(stepLabel(field("host.memory_gb"))).toBe("Memory per host (GB)");
    expect(stepLabel(field("host.os_version"))).toBe("Release");
    expect(stepLabel(field("oracle.workload"))).toBe("Workload");
  });

  it("orders each step's answers as the wizard asks them", () => {
    expect(fieldsOf("layout").map((f) => f.path)).toEqual(["layout.filer_host", "layout.db_name", "layout.oracle_home", "layout.volumes"]);
    expect(fieldsOf("handover", "sizing").every((f) => f.path.startsWith("sizing."))).toBe(true);
    expect(ANSWER_FIELDS.filter((f) => f.step === undefined || f.step === null).map((f) => f.path)).toEqual(["as_of"]);
  });

  it("asks an answer only where the answers it depends on say so", () => {
    const answers: Record<string, string | boolean> = { "filer.vendor": "aws_fsxn", "oracle.rac": false };
    const read = (path: string) => answers[path];
    expect(isAsked(field("handover.svm"), read)).toBe(true);
    expect(isAsked(field("handover.aggregate"), read)).toBe(false);
    expect(isAsked(field("sizing.crs_gb"), read)).toBe(false);
    expect(isAsked(field("network.switch_hops"), read, true)).toBe(false);
    expect(isAsked(field("network.switch_hops"), read, false)).toBe(true);
  });

  it("sends no answer the wizard does not ask: a hidden one never plans out of sight", () => {
    const draft = structuredClone(DEFAULT_DRAFT);
    draft.filer.vendor = "aws_fsxn";
    draft.handover.broadcast_domain = "bd_nfs";
    draft.handover.svm = "svm_prod";
    draft.sizing.crs_gb = "20";
    draft.sizing.database_gb = "500";
    const platform = toPlatform(draft);
    expect(platform.handover?.svm).toBe("svm_prod");
    expect(platform.handover?.broadcast_domain).toBeNull();
    expect(platform.sizing?.crs_gb).toBeNull();
    expect(platform.sizing?.database_gb).toBe(500);
    draft.oracle.rac = true;
    expect(askedIn(draft, "sizing.crs_gb")).toBe(true);
    expect(toPlatform(draft).sizing?.crs_gb).toBe(20);
  });

  it("reads a select's choices from the catalog or its own options, with the empty choice first", () => {
    const catalog = {
      os: { linux: { label: "Linux", arches: ["x86_64"], default_interface: "eth0", mount_table: "fstab", rsize_max: 1048576, releases: [{ id: "ol9", label: "Oracle Linux 9", key: "9" }] } },
      filers: { aws_fsxn: { label: "FSx", families: [], models: [], release_required: false, service_levels: [], throughput_capacities: [128, 1024] } },
      network: { nic_speeds: [], switch_kinds: [] },
    } as unknown as Catalog;
    const read = (path: string) => ({ "host.os": "linux", "filer.vendor": "aws_fsxn" })[path];
    expect(choicesOf(field("filer.throughput_mb_s"), catalog, read)).toEqual([
      { value: "", label: "Choose…" },
      { value: "128", label: "128 MBps" },
      { value: "1024", label: "1,024 MBps" },
    ]);
    expect(choicesOf(field("handover.change_kind"), catalog, read)[1]).toEqual({
      value: "migration",
      label: "Migration: the database moves here from other storage",
    });
    expect(choiceLabel(field("handover.change_kind"), "new_build")).toBe("New build");
    expect(choiceLabel(field("host.os_version"), "ol9", catalog)).toBe("Oracle Linux 9");
  });
});

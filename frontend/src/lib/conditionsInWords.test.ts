import { describe, expect, it } from "vitest";
import type { Catalog } from "../api/client";
import conditionFields from "../api/condition-fields.json";
import { conditionsInWords, givenConditions, rangeInWords, type Conditions } from "./conditionsInWords";

const vendor = (label: string, families: Catalog["filers"][string]["families"]): Catalog["filers"][string] => ({
  label,
  families,
  models: [],
  release_pattern: null,
  release_required: false,
  service_levels: [],
  throughput_capacities: [],
});

// A slice of what GET /api/v1/catalog returns (labels copied from the real catalog).
const catalog: Catalog = {
  kb_version: "test",
  constraints: [],
  // Generated from the backend by scripts/gen-client.sh, as GET /api/v1/catalog serves them.
  condition_fields: conditionFields as Catalog["condition_fields"],
  file_kinds: [],
  fields: [],
  presets: [],
  os: {
    solaris: {
      label: "Oracle (Sun) Solaris",
      arches: ["sparc", "x86_64"],
      default_interface: "ce0",
      mount_table: "vfstab",
      rsize_max: 1048576,
      releases: [
        { id: "9", label: "Solaris 9", key: "9", distro: null },
        { id: "9u5", label: "Solaris 9 12/03 (MU5)", key: "9.5", distro: null },
        { id: "10", label: "Solaris 10", key: "10", distro: null },
        { id: "11", label: "Solaris 11", key: "11", distro: null },
      ],
    },
    linux: {
      label: "Linux",
      arches: ["x86_64"],
      default_interface: "eth1",
      mount_table: "fstab",
      rsize_max: 1048576,
      releases: [
        { id: "rhel8", label: "Red Hat Enterprise Linux 8", key: "8", distro: "rhel" },
        { id: "ol9", label: "Oracle Linux 9", key: "9", distro: "ol" },
        { id: "sles11", label: "SUSE Linux Enterprise Server 11", key: "11", distro: "sles" },
        { id: "sles15", label: "SUSE Linux Enterprise Server 15", key: "15", distro: "sles" },
      ],
    },
    hpux: { label: "HP-UX", arches: ["ia64"], default_interface: "lan1", mount_table: "fstab", rsize_max: 1048576, releases: [] },
  },
  oracle: {
    examples: [],
    releases: [
      { id: "9i", label: "Oracle9i", range: ">=9,<10" },
      { id: "10gR2", label: "Oracle Database 10g Release 2", range: ">=10.2,<11" },
      { id: "11gR1", label: "Oracle Database 11g Release 1", range: ">=11.1,<11.2" },
      { id: "19c", label: "Oracle Database 19c", range: ">=19,<20" },
    ],
  },
  filers: {
    netapp: vendor("NetApp", [
      { id: "ontap7", label: "Data ONTAP (7-mode)", releases: ">=6.0,<8.3", known: ["6.5.1"], managed_network: false },
      { id: "ontap_cluster", label: "ONTAP (clustered)", releases: ">=9.0,<10", known: ["9.8"], managed_network: false },
    ]),
    aws_fsxn: vendor("Amazon FSx for NetApp ONTAP", [{ id: "fsxn", label: "Amazon FSx for NetApp ONTAP", releases: ">=0", known: [], managed_network: true }]),
    sun: vendor("Sun Storage 7000 (unified storage)", [{ id: "sun7000", label: "Sun Storage 7000 software", releases: ">=2008,<2012", known: [], managed_network: false }]),
  },
  network: {
    nic_speeds: [{ gbps: 1, label: "1 Gigabit Ethernet" }],
    switch_kinds: [
      { id: "store_and_forward", label: "Store-and-forward switch" },
      { id: "hub", label: "Hub (shared medium)" },
    ],
  },
  nfs_versions: [
    { id: "3", label: "NFSv3" },
    { id: "4.1", label: "NFSv4.1" },
  ],
  workloads: [
    { id: "oltp", label: "OLTP (transactions)" },
    { id: "dss", label: "DSS (scans, reporting)" },
    { id: "mixed", label: "Mixed" },
  ],
};

const words = (when: Conditions) => conditionsInWords(when, catalog);

describe("rangeInWords", () => {
  it("says each operator in words", () => {
    expect(rangeInWords(">=6.5.1")).toBe("6.5.1 and later");
    expect(rangeInWords("<8")).toBe("before 8");
    expect(rangeInWords(">=6.5.1,<8")).toBe("6.5.1 to before 8");
    expect(rangeInWords("<8,>=6.5.1")).toBe("6.5.1 to before 8");
    expect(rangeInWords("==7.3")).toBe("exactly 7.3");
    expect(rangeInWords(">7.3")).toBe("after 7.3");
    expect(rangeInWords("<=7.3")).toBe("up to 7.3");
    expect(rangeInWords(">=7,<=8")).toBe("7 up to and including 8");
    expect(rangeInWords(">7,<8")).toBe("after 7 and before 8");
    expect(rangeInWords("!=7.1")).toBe("except 7.1");
  });

  it("leaves what it cannot read as written", () => {
    expect(rangeInWords("7-mode")).toBe("7-mode");
  });
});

describe("conditionsInWords", () => {
  it("says every condition field the knowledge base declares, alone, in a line of its own", () => {
    const sample: Record<string, unknown> = {
      one_of: ["x"],
      equals: true,
      int_range: { min: 2, max: null },
      version_range: ">=9.2",
    };
    for (const field of conditionFields) {
      if (field.kind === "os_release_range") continue; // needs its one os: tested below
      const value =
        field.kind === "equals" && Object.keys(field.values).length > 0 && !("true" in field.values)
          ? Object.keys(field.values)[0]
          : field.kind === "one_of" && Object.keys(field.values).length > 0
            ? [Object.keys(field.values)[0]]
            : sample[field.kind];
      const lines = words({ [field.name]: value } as Conditions);
      expect(lines, field.name).toHaveLength(1);
      expect(lines[0], field.name).not.toBe("");
    }
  });

  it("says nothing for a rule that applies everywhere", () => {
    expect(words({})).toEqual([]);
    expect(words({ os: null, rac: null, any_of: null })).toEqual([]);
  });

  it("names operating systems with the catalog's labels", () => {
    expect(words({ os: ["solaris"] })).toEqual(["Oracle (Sun) Solaris"]);
    expect(words({ os: ["solaris", "linux", "hpux"] })).toEqual(["Oracle (Sun) Solaris, Linux or HP-UX"]);
    expect(words({ os: ["aix"] })).toEqual(["aix"]);
  });

  it("turns an OS release range into the catalog's release labels", () => {
    expect(words({ os: ["solaris"], os_release: ">=9u5,<10" })).toEqual(["Solaris 9 12/03 (MU5) to before Solaris 10"]);
    expect(words({ os: ["solaris"], os_release: "<9" })).toEqual(["before Solaris 9"]);
    // Bounds from two distributions: the releases the range takes in, by name.
    expect(words({ os: ["linux"], os_release: ">=rhel8,<sles11" })).toEqual([
      "Red Hat Enterprise Linux 8 or Oracle Linux 9",
    ]);
    expect(words({ os: ["solaris"], os_release: ">=11u4" })).toEqual(["11u4 and later"]);
  });

  it("names architectures", () => {
    expect(words({ arch: ["sparc", "x86_64"] })).toEqual(["SPARC or x86-64"]);
  });

  it("puts the filer release inside the family's label", () => {
    expect(words({ filer_vendor: ["netapp"], filer_family: ["ontap7"], filer_release: ">=6.5.1" })).toEqual([
      "Data ONTAP 6.5.1 and later, 7-mode",
    ]);
    expect(words({ filer_vendor: ["netapp"], filer_family: ["ontap_cluster"], filer_release: ">=9.8,<9.12" })).toEqual([
      "ONTAP 9.8 to before 9.12, clustered",
    ]);
    expect(words({ filer_vendor: ["sun"], filer_family: ["sun7000"], filer_release: "<2010" })).toEqual([
      "Sun Storage 7000 software before 2010",
    ]);
  });

  it("names filer families and vendors, the vendor only when the families do not already say it", () => {
    expect(words({ filer_family: ["ontap_cluster", "fsxn"] })).toEqual(["ONTAP (clustered) or Amazon FSx for NetApp ONTAP"]);
    expect(words({ filer_vendor: ["netapp"] })).toEqual(["NetApp"]);
    expect(words({ filer_vendor: ["netapp"], filer_family: ["ontap7"] })).toEqual(["Data ONTAP (7-mode)"]);
    expect(words({ filer_vendor: ["netapp"], filer_release: ">=9.8" })).toEqual(["NetApp release 9.8 and later"]);
    expect(words({ filer_vendor: ["netapp"], filer_family: ["ontap7", "ontap_cluster"], filer_release: ">=8" })).toEqual([
      "NetApp release 8 and later",
      "Data ONTAP (7-mode) or ONTAP (clustered)",
    ]);
    expect(words({ filer_family: ["generic"] })).toEqual(["generic"]);
  });

  it("names Oracle releases by the catalog where a bound starts a release", () => {
    expect(words({ oracle: ">=10.2" })).toEqual(["Oracle Database 10g Release 2 (10.2) and later"]);
    expect(words({ oracle: "<11.1" })).toEqual(["before Oracle Database 11g Release 1 (11.1)"]);
    expect(words({ oracle: ">=19" })).toEqual(["Oracle Database 19c and later"]);
    expect(words({ oracle: ">=10.2,<11" })).toEqual(["Oracle Database 10g Release 2"]);
    expect(words({ oracle: ">=9.0,<10" })).toEqual(["Oracle9i"]);
    expect(words({ oracle: ">=10.2,<12.2" })).toEqual(["Oracle Database 10g Release 2 (10.2) to before Oracle 12.2"]);
    expect(words({ oracle: "<12.2.0.2" })).toEqual(["Oracle before 12.2.0.2"]);
    expect(words({ oracle: ">=10.2.0.1,<10.2.0.2" })).toEqual(["Oracle 10.2.0.1 to before 10.2.0.2"]);
  });

  it("says 32- or 64-bit Oracle", () => {
    expect(words({ bits: 32 })).toEqual(["32-bit Oracle"]);
    expect(words({ bits: 64 })).toEqual(["64-bit Oracle"]);
  });

  it("says RAC or single instance", () => {
    expect(words({ rac: true })).toEqual(["RAC"]);
    expect(words({ rac: false })).toEqual(["single instance"]);
  });

  it("says Direct NFS or kernel NFS", () => {
    expect(words({ dnfs: true })).toEqual(["Direct NFS on"]);
    expect(words({ dnfs: false })).toEqual(["kernel NFS (Direct NFS off)"]);
  });

  it("names NFS versions", () => {
    expect(words({ nfs_version: ["3"] })).toEqual(["NFSv3"]);
    expect(words({ nfs_version: ["3", "4.1"] })).toEqual(["NFSv3 or NFSv4.1"]);
  });

  it("names workloads in a sentence", () => {
    expect(words({ workload: ["oltp"] })).toEqual(["OLTP workload"]);
    expect(words({ workload: ["dss", "mixed"] })).toEqual(["DSS or mixed workload"]);
  });

  it("says archivelog on or off", () => {
    expect(words({ archivelog: true })).toEqual(["archivelog on"]);
    expect(words({ archivelog: false })).toEqual(["archivelog off"]);
  });

  it("says the number of database instances", () => {
    expect(words({ instances: { min: 2 } })).toEqual(["2 or more database instances on the host"]);
    expect(words({ instances: { min: null, max: 1 } })).toEqual(["at most 1 database instance on the host"]);
  });

  it("says the memory", () => {
    expect(words({ memory_gb: { min: 8 } })).toEqual(["memory 8 GB or more"]);
    expect(words({ memory_gb: { max: 4 } })).toEqual(["memory up to 4 GB"]);
    expect(words({ memory_gb: { min: 8, max: 64 } })).toEqual(["memory 8–64 GB"]);
    expect(words({ memory_gb: { min: 8, max: 8 } })).toEqual(["memory exactly 8 GB"]);
  });

  it("says where ORACLE_HOME lives", () => {
    expect(words({ oracle_home: "nas" })).toEqual(["ORACLE_HOME on the filer"]);
    expect(words({ oracle_home: "local" })).toEqual(["ORACLE_HOME on local disk"]);
  });

  it("says the volume layout", () => {
    expect(words({ volumes: "separate" })).toEqual(["volumes separate (data; redo and control; archive)"]);
    expect(words({ volumes: "shared" })).toEqual(["volumes shared (data, redo and control in one)"]);
  });

  it("says the NIC speed", () => {
    expect(words({ nic_gbps: { min: 1, max: 10 } })).toEqual(["1–10 Gb/s NICs"]);
    expect(words({ nic_gbps: { min: 10, max: null } })).toEqual(["NICs of 10 Gb/s or faster"]);
    expect(words({ nic_gbps: { min: null, max: 1 } })).toEqual(["NICs of 1 Gb/s or slower"]);
    expect(words({ nic_gbps: { min: 10, max: 10 } })).toEqual(["10 Gb/s NICs"]);
    expect(words({ nic_gbps: {} })).toEqual([]);
  });

  it("says the number of NICs", () => {
    expect(words({ nic_count: { min: 2 } })).toEqual(["2 or more NICs"]);
    expect(words({ nic_count: { max: 1 } })).toEqual(["at most 1 NIC"]);
    expect(words({ nic_count: { min: 1, max: 1 } })).toEqual(["exactly 1 NIC"]);
    expect(words({ nic_count: { min: 2, max: 4 } })).toEqual(["2–4 NICs"]);
  });

  it("names the NIC driver", () => {
    expect(words({ nic_driver: ["ce"] })).toEqual(["NIC driver ce"]);
    expect(words({ nic_driver: ["ce", "ge"] })).toEqual(["NIC driver ce or ge"]);
  });

  it("says jumbo frames on or off", () => {
    expect(words({ jumbo_frames: true })).toEqual(["jumbo frames on"]);
    expect(words({ jumbo_frames: false })).toEqual(["jumbo frames off"]);
  });

  it("names the switch kind", () => {
    expect(words({ switch: ["store_and_forward"] })).toEqual(["store-and-forward switch"]);
    expect(words({ switch: ["hub", "cut_through"] })).toEqual(["hub (shared medium) or cut-through switch"]);
  });

  it("counts switch and router hops", () => {
    expect(words({ switch_hops: { max: 0 } })).toEqual(["no switch hops"]);
    expect(words({ router_hops: { min: 1 } })).toEqual(["1 or more router hops"]);
  });

  it("says whether the storage network is dedicated", () => {
    expect(words({ dedicated_storage_network: true })).toEqual(["dedicated storage network"]);
    expect(words({ dedicated_storage_network: false })).toEqual(["no dedicated storage network"]);
  });

  it("says any_of as alternatives in brackets", () => {
    expect(
      words({
        workload: ["dss"],
        any_of: [{ os: ["solaris"], os_release: ">=9u5" }, { os: ["hpux", "linux"] }],
      }),
    ).toEqual(["DSS workload", "any of: (Solaris 9 12/03 (MU5) and later) or (HP-UX or Linux)"]);
    expect(words({ any_of: [{ nfs_version: ["4.1"], rac: true }, {}] })).toEqual(["any of: (RAC; NFSv4.1) or (any platform)"]);
  });

  it("says none_of as exceptions", () => {
    expect(words({ bits: 64, none_of: [{ os: ["hpux"] }] })).toEqual(["64-bit Oracle", "not when: HP-UX"]);
    expect(words({ none_of: [{ nfs_version: ["4.1"], filer_family: ["ontap_cluster"] }] })).toEqual([
      "not when: ONTAP (clustered); NFSv4.1",
    ]);
    expect(words({ none_of: [{ rac: true }, { dnfs: true }] })).toEqual(["not when: (RAC) or (Direct NFS on)"]);
  });

  it("keeps a fixed order, one line per condition", () => {
    expect(
      words({
        dnfs: false,
        os: ["linux"],
        filer_vendor: ["netapp"],
        filer_family: ["ontap_cluster"],
        filer_release: ">=9.8",
        any_of: [{ os: ["linux"], os_release: ">=rhel8" }],
      }),
    ).toEqual(["Linux", "ONTAP 9.8 and later, clustered", "kernel NFS (Direct NFS off)", "any of: (Red Hat Enterprise Linux 8 and later)"]);
  });

  it("drops the nulls the API sends, also inside any_of and none_of", () => {
    expect(givenConditions({ os: ["linux"], rac: null, any_of: [{ dnfs: true, os: null }], none_of: null })).toEqual({
      os: ["linux"],
      any_of: [{ dnfs: true }],
    });
    expect(givenConditions({ os: null })).toEqual({});
  });
});

// The wizard's answers live in the URL: only values that differ from the defaults, flat
// dotted keys (`host.os=linux`), and a schema version `v` so old links keep working.
import type { Catalog, Platform } from "../api/client";
import { managedNetwork } from "./constraints";

export const DRAFT_VERSION = 1;

export interface Draft {
  host: {
    os: string;
    os_version: string;
    arch: string;
    memory_gb: string;
    hostname: string;
    nic_interface: string;
  };
  network: {
    nic_gbps: string;
    nic_count: string;
    jumbo_frames: boolean;
    switch: string;
    switch_hops: string;
    router_hops: string;
    dedicated_storage_network: boolean;
    rtt_us: string;
  };
  oracle: {
    version: string;
    bits: string;
    rac: boolean;
    rac_nodes: string;
    dnfs: boolean;
    nfs_version: string;
    archivelog: boolean;
    workload: string;
    instances: string;
  };
  filer: {
    vendor: string;
    model: string;
    os_version: string;
    interface: string;
    service_level: string;
    capacity_tib: string;
    throughput_mb_s: string;
  };
  layout: { oracle_home: string; filer_host: string; db_name: string; volumes: string };
  /** Hand-over answers, all optional; paths are flat (p1_host_address …) to fit the URL. */
  handover: Record<HandoverField, string>;
  sizing: Record<SizingField, string>;
  as_of: string;
}

export const PATH_FIELDS = ["host_interface", "host_address", "filer_interface", "filer_address"] as const;
export const MAX_PATHS = 4;
const NAME_FIELDS = [
  "change_kind",
  "svm",
  "aggregate",
  "capacity_pool",
  "broadcast_domain",
  "fsx_svm_id",
  "cluster_nodes",
  "client_subnet",
  "nfs4_id_domain",
  "oracle_uid",
  "oracle_gid",
] as const;
const PATH_KEYS = [1, 2, 3, 4].flatMap((n) => PATH_FIELDS.map((f) => `p${n}_${f}` as const));
export type HandoverField = (typeof NAME_FIELDS)[number] | (typeof PATH_KEYS)[number];
export const HANDOVER_FIELDS: readonly HandoverField[] = [...NAME_FIELDS, ...PATH_KEYS];
export const SIZING_FIELDS = [
  "database_gb",
  "growth_pct_per_year",
  "horizon_years",
  "redo_mb_per_s",
  "redo_gb_per_day",
  "archive_retention_days",
  "snapshot_retention_days",
  "daily_change_pct",
  "oracle_homes",
  "oracle_home_gb",
  "crs_gb",
] as const;
export type SizingField = (typeof SIZING_FIELDS)[number];

function blank<K extends string>(keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, ""])) as Record<K, string>;
}

export type Section = Exclude<keyof Draft, "as_of">;

export const DEFAULT_DRAFT: Draft = {
  host: { os: "linux", os_version: "ol9", arch: "x86_64", memory_gb: "", hostname: "", nic_interface: "" },
  network: {
    nic_gbps: "25",
    nic_count: "2",
    jumbo_frames: true,
    switch: "store_and_forward",
    switch_hops: "1",
    router_hops: "0",
    dedicated_storage_network: true,
    rtt_us: "",
  },
  oracle: {
    version: "19.21",
    bits: "64",
    rac: false,
    rac_nodes: "",
    dnfs: true,
    nfs_version: "3",
    archivelog: true,
    workload: "oltp",
    instances: "1",
  },
  filer: { vendor: "netapp", model: "", os_version: "9.14.1", interface: "", service_level: "", capacity_tib: "", throughput_mb_s: "" },
  layout: { oracle_home: "local", filer_host: "filer01", db_name: "PROD", volumes: "separate" },
  handover: blank(HANDOVER_FIELDS),
  sizing: blank(SIZING_FIELDS),
  as_of: "",
};

const SECTIONS: Section[] = ["host", "network", "oracle", "filer", "layout", "handover", "sizing"];

function cloneDefaults(): Draft {
  return structuredClone(DEFAULT_DRAFT);
}

/** Changes between schema versions: each step turns version N's params into N+1's. */
const MIGRATIONS: Record<number, (params: URLSearchParams) => URLSearchParams> = {
  // Version 0 is a link without `v`: the same keys as version 1.
  0: (params) => params,
};

export function migrate(params: URLSearchParams): URLSearchParams {
  let version = Number(params.get("v") ?? "0");
  let current = new URLSearchParams(params);
  if (!Number.isInteger(version) || version > DRAFT_VERSION) return current;
  while (version < DRAFT_VERSION) {
    const step = MIGRATIONS[version];
    if (step) current = step(current);
    version += 1;
  }
  current.set("v", String(DRAFT_VERSION));
  return current;
}

export function decodeDraft(search: string | URLSearchParams): Draft {
  const params = migrate(new URLSearchParams(search));
  const draft = cloneDefaults();
  for (const section of SECTIONS) {
    const values = draft[section] as unknown as Record<string, string | boolean>;
    for (const [field, fallback] of Object.entries(values)) {
      const raw = params.get(`${section}.${field}`);
      if (raw === null) continue;
      values[field] = typeof fallback === "boolean" ? raw === "1" || raw === "true" : raw;
    }
  }
  draft.as_of = params.get("as_of") ?? "";
  return draft;
}

export function encodeDraft(draft: Draft, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams();
  params.set("v", String(DRAFT_VERSION));
  for (const section of SECTIONS) {
    const defaults = DEFAULT_DRAFT[section] as unknown as Record<string, string | boolean>;
    const values = draft[section] as unknown as Record<string, string | boolean>;
    for (const [field, value] of Object.entries(values)) {
      if (value === defaults[field]) continue;
      params.set(`${section}.${field}`, typeof value === "boolean" ? (value ? "1" : "0") : value);
    }
  }
  if (draft.as_of) params.set("as_of", draft.as_of);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params;
}

function text(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A platform (a preset, a saved revision) as wizard answers: a missing field takes its
 * default, an explicit null becomes an empty answer. */
export function draftFromPlatform(platform: Platform): Draft {
  const draft = cloneDefaults();
  const source = platform as unknown as Record<string, Record<string, unknown> | string | null>;
  const handover = (platform.handover ?? {}) as Record<string, unknown>;
  const flat: Record<string, unknown> = { ...handover };
  if (Array.isArray(handover.cluster_nodes)) flat.cluster_nodes = handover.cluster_nodes.join(", ");
  (Array.isArray(handover.paths) ? handover.paths : []).forEach((path, index) => {
    for (const field of PATH_FIELDS) flat[`p${index + 1}_${field}`] = (path as Record<string, unknown>)[field];
  });
  source.handover = flat;
  for (const section of SECTIONS) {
    const given = (source[section] ?? {}) as Record<string, unknown>;
    const values = draft[section] as unknown as Record<string, string | boolean>;
    for (const field of Object.keys(values)) {
      if (!(field in given)) continue;
      const value = given[field];
      values[field] = typeof value === "boolean" ? value : text(value);
    }
  }
  draft.as_of = text(platform.as_of);
  return draft;
}

function optionalNumber(value: string): number | null {
  return value.trim() === "" ? null : Number(value);
}

function optionalText(value: string): string | null {
  return value.trim() === "" ? null : value.trim();
}

/** Cloud NAS vendors: the service level and capacity go with them, and only with them. */
export const CLOUD_VENDORS = new Set(["azure_anf", "gcp_gcnv"]);
/** Vendors whose filers take ONTAP names (SVM, aggregate, broadcast domain). */
export const ONTAP_VENDORS = new Set(["netapp", "aws_fsxn"]);
/** Amazon FSx for NetApp ONTAP: the provisioned throughput capacity goes with it, and only with it. */
export const THROUGHPUT_VENDORS = new Set(["aws_fsxn"]);

/** Wizard answers as the API's platform body (call after validation). */
export function toPlatform(draft: Draft): Platform {
  const cloud = CLOUD_VENDORS.has(draft.filer.vendor);
  return {
    host: {
      os: draft.host.os as Platform["host"]["os"],
      os_version: draft.host.os_version,
      arch: draft.host.arch as Platform["host"]["arch"],
      memory_gb: optionalNumber(draft.host.memory_gb),
      hostname: optionalText(draft.host.hostname),
      nic_interface: optionalText(draft.host.nic_interface),
    },
    network: {
      nic_gbps: Number(draft.network.nic_gbps) as Platform["network"]["nic_gbps"],
      nic_count: Number(draft.network.nic_count),
      jumbo_frames: draft.network.jumbo_frames,
      switch: draft.network.switch as NonNullable<Platform["network"]["switch"]>,
      switch_hops: Number(draft.network.switch_hops),
      router_hops: Number(draft.network.router_hops),
      dedicated_storage_network: draft.network.dedicated_storage_network,
      rtt_us: optionalNumber(draft.network.rtt_us),
    },
    oracle: {
      version: draft.oracle.version.trim(),
      bits: Number(draft.oracle.bits) as 32 | 64,
      rac: draft.oracle.rac,
      rac_nodes: draft.oracle.rac ? optionalNumber(draft.oracle.rac_nodes) : null,
      dnfs: draft.oracle.dnfs,
      nfs_version: draft.oracle.nfs_version as NonNullable<Platform["oracle"]["nfs_version"]>,
      archivelog: draft.oracle.archivelog,
      workload: draft.oracle.workload as NonNullable<Platform["oracle"]["workload"]>,
      instances: Number(draft.oracle.instances),
    },
    filer: {
      vendor: draft.filer.vendor as Platform["filer"]["vendor"],
      model: optionalText(draft.filer.model),
      os_version: optionalText(draft.filer.os_version),
      interface: optionalText(draft.filer.interface),
      service_level: cloud ? (optionalText(draft.filer.service_level) as Platform["filer"]["service_level"]) : null,
      capacity_tib: cloud ? optionalNumber(draft.filer.capacity_tib) : null,
      throughput_mb_s: THROUGHPUT_VENDORS.has(draft.filer.vendor)
        ? (optionalNumber(draft.filer.throughput_mb_s) as Platform["filer"]["throughput_mb_s"])
        : null,
    },
    layout: {
      oracle_home: draft.layout.oracle_home as NonNullable<Platform["layout"]["oracle_home"]>,
      filer_host: draft.layout.filer_host.trim(),
      db_name: draft.layout.db_name.trim(),
      volumes: draft.layout.volumes as NonNullable<Platform["layout"]["volumes"]>,
    },
    handover: toHandover(draft),
    sizing: toSizing(draft),
    as_of: draft.as_of || null,
  };
}

/** How many storage paths the hand-over step asks about: one per NIC, at most four. */
export function pathCount(draft: Draft): number {
  return Math.max(1, Math.min(MAX_PATHS, Number(draft.network.nic_count) || 1));
}

type ChangeKind = NonNullable<NonNullable<Platform["handover"]>["change_kind"]>;
const CHANGE_KINDS: readonly ChangeKind[] = ["migration", "new_build"];

function changeKind(answer: string | undefined): ChangeKind | null {
  return CHANGE_KINDS.find((kind) => kind === answer) ?? null;
}

function toHandover(draft: Draft): Platform["handover"] {
  const h = draft.handover;
  const paths = [];
  for (let n = 1; n <= pathCount(draft); n += 1) {
    const answer = (field: (typeof PATH_FIELDS)[number]) => optionalText(h[`p${n}_${field}` as HandoverField] ?? "");
    paths.push({
      host_interface: answer("host_interface"),
      host_address: answer("host_address"),
      filer_interface: answer("filer_interface"),
      filer_address: answer("filer_address"),
    });
  }
  const unanswered = (path: Record<string, string | null> | undefined) =>
    path !== undefined && Object.values(path).every((v) => v === null);
  while (unanswered(paths[paths.length - 1])) paths.pop();
  const nodes = draft.oracle.rac
    ? h.cluster_nodes
        .split(/[\s,]+/)
        .map((n) => n.trim())
        .filter(Boolean)
    : [];
  const ontap = ONTAP_VENDORS.has(draft.filer.vendor);
  const result = {
    change_kind: changeKind(h.change_kind),
    svm: ontap ? optionalText(h.svm) : null,
    // FSx for ONTAP's volumes are made by the AWS API, which places them: no aggregate.
    aggregate: draft.filer.vendor === "netapp" ? optionalText(h.aggregate) : null,
    capacity_pool: CLOUD_VENDORS.has(draft.filer.vendor) ? optionalText(h.capacity_pool) : null,
    broadcast_domain: ontap ? optionalText(h.broadcast_domain) : null,
    fsx_svm_id: draft.filer.vendor === "aws_fsxn" ? optionalText(h.fsx_svm_id) : null,
    paths,
    cluster_nodes: nodes,
    client_subnet: optionalText(h.client_subnet),
    nfs4_id_domain: draft.oracle.nfs_version === "4.1" ? optionalText(h.nfs4_id_domain) : null,
    oracle_uid: optionalNumber(h.oracle_uid),
    oracle_gid: optionalNumber(h.oracle_gid),
  };
  const empty = Object.values(result).every((v) => v === null || (Array.isArray(v) && v.length === 0));
  return empty ? null : result;
}

function toSizing(draft: Draft): Platform["sizing"] {
  const entries = SIZING_FIELDS.map((field) => [field, optionalNumber(draft.sizing[field])] as const);
  if (entries.every(([, value]) => value === null)) return null;
  return Object.fromEntries(entries) as Platform["sizing"];
}

/** Keep dependent answers valid when the OS or the vendor changes. */
export function adjustDependent(draft: Draft, catalog: Catalog, section: Section, field: string): Draft {
  if (section === "host" && field === "os") {
    const os = catalog.os[draft.host.os];
    if (os && !os.releases.some((r) => r.id === draft.host.os_version)) {
      draft.host.os_version = os.releases[os.releases.length - 1]?.id ?? "";
    }
    if (os && !os.arches.includes(draft.host.arch)) draft.host.arch = os.arches[0] ?? draft.host.arch;
  }
  if (section === "filer" && field === "vendor") {
    const vendor = catalog.filers[draft.filer.vendor];
    const known = (vendor?.families ?? []).flatMap((f) => f.known);
    if (!known.includes(draft.filer.os_version)) draft.filer.os_version = known[known.length - 1] ?? "";
    // Cloud VMs reach a managed service at the image's MTU and the wizard no longer asks about
    // jumbo frames there: an answer left from another vendor would plan advice out of sight.
    if (managedNetwork(catalog, draft.filer.vendor)) draft.network.jumbo_frames = false;
  }
  return draft;
}

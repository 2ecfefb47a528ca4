// The wizard's answers live in the URL: only values that differ from the defaults, flat
// dotted keys (`host.os=linux`), and a schema version `v` so old links keep working.
import type { Catalog, Platform, Schemas } from "../api/client";
import { ANSWER_FIELDS, fieldAt, isAsked, openingOf } from "./answerFields";
import { managedNetwork } from "./constraints";

export const DRAFT_VERSION = 1;

/** A section's answers as the wizard keeps them: ticks as booleans, everything else as typed text. */
type Answers<T> = { [K in keyof T]-?: NonNullable<T[K]> extends boolean ? boolean : string };

export type PathField = keyof Schemas["StoragePath"] & string;
type PathKey = `p${1 | 2 | 3 | 4}_${PathField}`;
/** Hand-over answers, all optional; paths are flat (p1_host_address …) to fit the URL. */
export type HandoverField = Exclude<keyof Schemas["Handover"] & string, "paths"> | PathKey;
export type SizingField = keyof Schemas["Sizing"] & string;

export interface Draft {
  host: Answers<Schemas["Host"]>;
  network: Answers<Schemas["Network"]>;
  oracle: Answers<Schemas["Oracle"]>;
  filer: Answers<Schemas["Filer"]>;
  layout: Answers<Schemas["Layout"]>;
  handover: Record<HandoverField, string>;
  sizing: Record<SizingField, string>;
  as_of: string;
}

export type Section = Exclude<keyof Draft, "as_of">;

const PATH_PREFIX = "handover.paths[].";
export const PATH_FIELDS: readonly PathField[] = ANSWER_FIELDS.filter((f) => f.path.startsWith(PATH_PREFIX)).map(
  (f) => f.path.slice(PATH_PREFIX.length) as PathField,
);
export const MAX_PATHS = 4;
const PATH_KEYS = [1, 2, 3, 4].flatMap((n) => PATH_FIELDS.map((f) => `p${n}_${f}` as PathKey));

/** The draft's key of an answer ("host.os" → [host, os]; "handover.cluster_nodes[]" → [handover, cluster_nodes]);
 * null for the storage paths, which the draft keeps flat, and for answers outside the sections. */
export function draftKeyOf(path: string): [Section, string] | null {
  if (path.startsWith(PATH_PREFIX)) return null;
  const [section, field] = path.replace("[]", "").split(".", 2);
  return field === undefined ? null : [section as Section, field];
}

function openingDraft(): Draft {
  const draft: Record<string, Record<string, string | boolean>> = { handover: {}, sizing: {} };
  for (const field of ANSWER_FIELDS) {
    const key = draftKeyOf(field.path);
    if (key === null) continue;
    (draft[key[0]] ??= {})[key[1]] = openingOf(field);
  }
  for (const key of PATH_KEYS) (draft.handover as Record<string, string>)[key] = "";
  return { ...draft, as_of: "" } as unknown as Draft;
}

/** The wizard's opening answers (knowledge/catalog/fields.yaml: each answer's `opening`). */
export const DEFAULT_DRAFT: Draft = openingDraft();
export const HANDOVER_FIELDS = Object.keys(DEFAULT_DRAFT.handover) as HandoverField[];
export const SIZING_FIELDS = Object.keys(DEFAULT_DRAFT.sizing) as SizingField[];

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

/** Another answer of the draft by its path in the fields table ("oracle.rac"). */
export function answerOf(draft: Draft, path: string): string | boolean | undefined {
  const key = draftKeyOf(path);
  if (key === null) return undefined;
  return (draft[key[0]] as unknown as Record<string, string | boolean>)[key[1]];
}

/** Whether the answer at a path is asked for this draft (fields.yaml's shown_when, given
 * whether the cloud provider's network is the path). An optional answer that is not asked is
 * not sent: an answer left from another vendor or an unticked RAC never plans out of sight. */
export function askedIn(draft: Draft, path: string, managed = false): boolean {
  const field = fieldAt(path);
  return field === undefined || isAsked(field, (other) => answerOf(draft, other), managed);
}

/** Wizard answers as the API's platform body (call after validation). */
export function toPlatform(draft: Draft): Platform {
  const asked = (path: string) => askedIn(draft, path);
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
      rac_nodes: asked("oracle.rac_nodes") ? optionalNumber(draft.oracle.rac_nodes) : null,
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
      service_level: asked("filer.service_level") ? (optionalText(draft.filer.service_level) as Platform["filer"]["service_level"]) : null,
      capacity_tib: asked("filer.capacity_tib") ? optionalNumber(draft.filer.capacity_tib) : null,
      throughput_mb_s: asked("filer.throughput_mb_s")
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
  const asked = (path: string) => askedIn(draft, path);
  const nodes = asked("handover.cluster_nodes[]")
    ? h.cluster_nodes
        .split(/[\s,]+/)
        .map((n) => n.trim())
        .filter(Boolean)
    : [];
  const name = (field: "svm" | "aggregate" | "capacity_pool" | "broadcast_domain" | "fsx_svm_id" | "nfs4_id_domain") =>
    asked(`handover.${field}`) ? optionalText(h[field]) : null;
  const result = {
    change_kind: changeKind(h.change_kind),
    svm: name("svm"),
    // FSx for ONTAP's volumes are made by the AWS API, which places them: no aggregate.
    aggregate: name("aggregate"),
    capacity_pool: name("capacity_pool"),
    broadcast_domain: name("broadcast_domain"),
    fsx_svm_id: name("fsx_svm_id"),
    paths,
    cluster_nodes: nodes,
    client_subnet: optionalText(h.client_subnet),
    nfs4_id_domain: name("nfs4_id_domain"),
    oracle_uid: optionalNumber(h.oracle_uid),
    oracle_gid: optionalNumber(h.oracle_gid),
  };
  const empty = Object.values(result).every((v) => v === null || (Array.isArray(v) && v.length === 0));
  return empty ? null : result;
}

function toSizing(draft: Draft): Platform["sizing"] {
  const entries = SIZING_FIELDS.map(
    (field) => [field, askedIn(draft, `sizing.${field}`) ? optionalNumber(draft.sizing[field]) : null] as const,
  );
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

// The items of a plan diff (backend engine/diff.py) in the words a DBA or storage administrator
// uses: platform answers by their wizard label, expectations by what they measure, values with
// their units and choices by their catalog labels.
import type { Catalog, Change, Schemas } from "../../api/client";
import { findingMessage } from "../plan/story";

/** Every platform answer as the wizard labels it, by its path in platform-fields.json. */
export const ANSWER_LABELS: Readonly<Record<string, string>> = {
  "host.os": "Operating system",
  "host.os_version": "Operating system release",
  "host.arch": "Processor architecture",
  "host.memory_gb": "Memory per host",
  "host.hostname": "Database host name",
  "host.nic_interface": "Storage NIC interface",
  "network.nic_gbps": "NIC speed",
  "network.nic_count": "Storage NICs per host",
  "network.jumbo_frames": "Jumbo frames (MTU 9000)",
  "network.switch": "Switch type",
  "network.switch_hops": "Switches on the path",
  "network.router_hops": "Routers on the path",
  "network.dedicated_storage_network": "Dedicated storage network or VLAN",
  "network.rtt_us": "Measured round trip",
  "oracle.version": "Oracle release",
  "oracle.bits": "Binaries",
  "oracle.rac": "Real Application Clusters (RAC)",
  "oracle.rac_nodes": "Cluster nodes",
  "oracle.dnfs": "Direct NFS (dNFS)",
  "oracle.nfs_version": "NFS version",
  "oracle.archivelog": "ARCHIVELOG mode",
  "oracle.workload": "Workload",
  "oracle.instances": "Instances on this host",
  "filer.vendor": "Storage vendor",
  "filer.model": "Filer model",
  "filer.os_version": "Filer software release",
  "filer.interface": "Filer NFS interface",
  "filer.service_level": "Service level",
  "filer.capacity_tib": "Provisioned capacity",
  "filer.throughput_mb_s": "Throughput capacity per HA pair",
  "layout.oracle_home": "ORACLE_HOME",
  "layout.filer_host": "Filer host name",
  "layout.db_name": "Database name (DB_NAME)",
  "layout.volumes": "Volumes",
  "handover.change_kind": "The change",
  "handover.svm": "SVM (vserver) name",
  "handover.aggregate": "Aggregate",
  "handover.capacity_pool": "Capacity pool",
  "handover.broadcast_domain": "Broadcast domain",
  "handover.fsx_svm_id": "FSx SVM id",
  "handover.paths[].host_interface": "host interface",
  "handover.paths[].host_address": "host address",
  "handover.paths[].filer_interface": "filer port",
  "handover.paths[].filer_address": "filer address",
  "handover.cluster_nodes[]": "RAC node host names",
  "handover.nfs4_id_domain": "NFSv4 ID domain",
  "handover.client_subnet": "Client subnet",
  "handover.oracle_uid": "Oracle owner user id",
  "handover.oracle_gid": "Oracle owner group id",
  "sizing.database_gb": "Datafiles today",
  "sizing.growth_pct_per_year": "Growth per year",
  "sizing.horizon_years": "Horizon",
  "sizing.redo_mb_per_s": "Peak redo rate",
  "sizing.redo_gb_per_day": "Redo per day",
  "sizing.archive_retention_days": "Archive retention",
  "sizing.snapshot_retention_days": "Snapshot retention",
  "sizing.daily_change_pct": "Data changed per day",
  "sizing.oracle_homes": "Oracle homes on the filer",
  "sizing.oracle_home_gb": "Size of one Oracle home",
  "sizing.crs_gb": "Clusterware files",
  as_of: "Advice as of",
};

const ANSWER_UNITS: Readonly<Record<string, string>> = {
  "host.memory_gb": "GB",
  "network.rtt_us": "µs",
  "filer.capacity_tib": "TiB",
  "filer.throughput_mb_s": "MB/s",
  "sizing.database_gb": "GB",
  "sizing.growth_pct_per_year": "%",
  "sizing.horizon_years": "years",
  "sizing.redo_mb_per_s": "MB/s",
  "sizing.redo_gb_per_day": "GB",
  "sizing.archive_retention_days": "days",
  "sizing.snapshot_retention_days": "days",
  "sizing.daily_change_pct": "%",
  "sizing.oracle_home_gb": "GB",
  "sizing.crs_gb": "GB",
};

/** Choices the wizard offers under another name than the value it sends. */
const CHOICE_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "oracle.bits": { "32": "32-bit", "64": "64-bit" },
  "layout.oracle_home": { local: "On local disk", nas: "On the filer" },
  "layout.volumes": { separate: "Separate: data, redo + control, archive", shared: "Shared: data, redo and control in one volume" },
  "handover.change_kind": { migration: "Migration", new_build: "New build" },
};

/** The diff names a storage path's answer by its number: handover.paths.2.host_address. */
const PATH_ANSWER = /^handover\.paths\.(\d+)\.(\w+)$/;

/** The answer's path in platform-fields.json ("handover.paths[].host_address"). */
export function fieldPath(key: string): string {
  const path = PATH_ANSWER.exec(key);
  if (path) return `handover.paths[].${path[2] ?? ""}`;
  return key === "handover.cluster_nodes" ? "handover.cluster_nodes[]" : key;
}

/** "Workload", "Path 2: host address"; an answer this page does not know yet by its last part. */
export function answerLabel(key: string): string {
  const label = ANSWER_LABELS[fieldPath(key)];
  const path = PATH_ANSWER.exec(key);
  if (label && path) return `Path ${path[1] ?? ""}: ${label}`;
  return label ?? (key.split(".").pop() ?? key).replaceAll("_", " ");
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

function withUnit(value: string, unit: string): string {
  if (!NUMBER.test(value)) return value;
  const number = decimal.format(Number(value));
  return unit === "%" ? `${number}%` : `${number} ${unit}`;
}

function catalogLabel(key: string, value: string, catalog: Catalog | undefined): string | undefined {
  if (!catalog) return undefined;
  switch (key) {
    case "host.os":
      return catalog.os[value]?.label;
    case "host.os_version":
      return Object.values(catalog.os)
        .flatMap((os) => os.releases)
        .find((release) => release.id === value)?.label;
    case "network.nic_gbps":
      return catalog.network.nic_speeds.find((speed) => String(speed.gbps) === value)?.label;
    case "network.switch":
      return catalog.network.switch_kinds.find((kind) => kind.id === value)?.label;
    case "oracle.workload":
      return catalog.workloads.find((workload) => workload.id === value)?.label;
    case "oracle.nfs_version":
      return catalog.nfs_versions.find((version) => version.id === value)?.label;
    case "filer.vendor":
      return catalog.filers[value]?.label;
    default:
      return undefined;
  }
}

/** An answer's value as the diff sends it ("true", "25", "oltp", "(none)"), in words. */
export function answerValue(key: string, value: string | null, catalog?: Catalog): string {
  if (value === null || value === "" || value === "(none)") return "not given";
  if (value === "true") return "yes";
  if (value === "false") return "no";
  const named = catalogLabel(key, value, catalog) ?? CHOICE_WORDS[key]?.[value];
  if (named) return named;
  if (key === "network.nic_gbps") return `${value} Gb/s`;
  // Releases (19.21), counts and ids stay as typed; only measures get digit grouping and a unit.
  const unit = ANSWER_UNITS[key];
  return unit === undefined ? value : withUnit(value, unit);
}

type ExpectationKey = Exclude<keyof Schemas["Expectations"], "rules">;

interface ExpectationWords {
  label: string;
  unit?: string;
}

/** Every expectation the diff compares, by what it measures (the type makes the list whole). */
export const EXPECTATION_WORDS: Readonly<Record<ExpectationKey, ExpectationWords>> = {
  planned_client: { label: "Client the figures model" },
  planned_scan_mb_s: { label: "Planned scan throughput", unit: "MB/s" },
  service_ceiling_mb_s: { label: "Throughput the service level allows", unit: "MB/s" },
  single_stream_mb_s: { label: "One serial stream (one request at a time)", unit: "MB/s" },
  pipelined_stream_mb_s: { label: "One stream with several requests in flight", unit: "MB/s" },
  rtt_us: { label: "Round trip of one read", unit: "µs" },
  rtt_measured: { label: "Round trip measured (not modelled)" },
  transfer_bytes: { label: "Bytes per read on the wire", unit: "bytes" },
  nic_payload_ceiling_mb_s: { label: "Payload ceiling of one NIC", unit: "MB/s" },
  aggregate_ceiling_mb_s: { label: "All storage NICs together", unit: "MB/s" },
  tcp_window_bytes: { label: "TCP window needed", unit: "bytes" },
  bottleneck: { label: "Bottleneck" },
  serial_client: { label: "Client sends one request at a time" },
  nfs_overhead_8k_us: { label: "NFS overhead per 8 KB read", unit: "µs" },
  overhead_vs_disk_pct: { label: "NFS overhead against a 7 ms disk read", unit: "%" },
  improvements: { label: "What would improve it" },
  assumptions: { label: "Assumptions of the model" },
  latency_budget_us: { label: "Latency budget" },
};

function isExpectation(key: string): key is ExpectationKey {
  return Object.hasOwn(EXPECTATION_WORDS, key);
}

/** 65536 bytes → "65,536 bytes (64 KiB)": windows and transfer sizes read in KiB. */
function bytes(value: string): string {
  const count = Number(value);
  const plain = `${decimal.format(count)} bytes`;
  return count >= 1024 && count % 1024 === 0 ? `${plain} (${decimal.format(count / 1024)} KiB)` : plain;
}

export function expectationValue(key: string, value: string | null): string {
  if (value === null || value === "" || value === "(none)") return "none";
  if (value === "true") return "yes";
  if (value === "false") return "no";
  const unit = isExpectation(key) ? EXPECTATION_WORDS[key].unit : undefined;
  if (unit === "bytes" && NUMBER.test(value)) return bytes(value);
  if (unit !== undefined) return withUnit(value, unit);
  // The latency budget reads "wire 12.0 us (…); switches …".
  return value.replace(/(\d) us\b/g, "$1 µs");
}

const PLAN_WORDS: Readonly<Record<string, string>> = { kb_version: "Knowledge base release", as_of: "Advice as of" };

/** A change's subject and its two values in words. */
export interface ChangeWords {
  name: string;
  before: string | null;
  after: string | null;
}

function values(change: Change, word: (value: string | null) => string): Pick<ChangeWords, "before" | "after"> {
  return {
    before: change.kind === "added" ? null : word(change.before),
    after: change.kind === "removed" ? null : word(change.after),
  };
}

/** The subject of a check ("host: rsize on the data mount" → "rsize on the data mount"). */
function afterColon(key: string): string {
  const at = key.indexOf(": ");
  return at < 0 ? key : key.slice(at + 2);
}

export function changeWords(change: Change, catalog?: Catalog): ChangeWords {
  const raw = (value: string | null) => value ?? "";
  switch (change.item) {
    case "platform":
      return { name: answerLabel(change.key), ...values(change, (value) => answerValue(change.key, value, catalog)) };
    case "expectation": {
      const name = isExpectation(change.key) ? EXPECTATION_WORDS[change.key].label : change.key.replaceAll("_", " ");
      return { name, ...values(change, (value) => expectationValue(change.key, value)) };
    }
    case "plan":
      return { name: PLAN_WORDS[change.key] ?? change.key, ...values(change, raw) };
    case "setting":
      return { name: change.setting?.name ?? change.key, ...values(change, (value) => (value === "(unset)" ? "unset (the default)" : raw(value))) };
    case "finding":
      return { name: findingMessage(change.key), ...values(change, raw) };
    case "check":
      return { name: afterColon(change.key), ...values(change, raw) };
    case "volume":
      return { name: `Volume ${change.key}`, ...values(change, raw) };
    case "mount":
      return { name: `Mount ${change.key.split(" ").slice(1).join(" ")}`, ...values(change, raw) };
  }
}

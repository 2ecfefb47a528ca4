// The items of a plan diff (backend engine/diff.py) in the words a DBA or storage administrator
// uses: platform answers by their wizard label, expectations by what they measure, values with
// their units and choices by their catalog labels.
import type { Catalog, Change, Schemas } from "../../api/client";
import { ANSWER_FIELDS, choiceLabel, fieldAt } from "../../lib/answerFields";

/** Every platform answer by its name on its own (fields.yaml's `label`), by its path in
 * platform-fields.json. */
export const ANSWER_LABELS: Readonly<Record<string, string>> = Object.fromEntries(ANSWER_FIELDS.map((field) => [field.path, field.label]));

/** An answer by its field in the answer table and, for a storage path's answer, the path's
 * number: "Workload", "Path 2: host address". */
export function answerName(field: string, number?: number | null): string {
  const label = ANSWER_LABELS[field] ?? (field.split(".").pop() ?? field).replace("[]", "").replaceAll("_", " ");
  return number ? `Path ${number}: ${label}` : label;
}

/** A wizard answer by its draft key ("handover.p2_host_address" is path 2's host address). */
export function answerLabel(key: string): string {
  const perPath = /^handover\.p(\d+)_(\w+)$/.exec(key);
  if (perPath) return answerName(`handover.paths[].${perPath[2] ?? ""}`, Number(perPath[1]));
  return answerName(fieldAt(`${key}[]`) ? `${key}[]` : key);
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

function withUnit(value: string, unit: string): string {
  if (!NUMBER.test(value)) return value;
  const number = decimal.format(Number(value));
  return unit === "%" ? `${number}%` : `${number} ${unit}`;
}

/** An answer's value as the diff sends it ("true", "25", "oltp", "(none)"), in words. */
export function answerValue(field: string, value: string | null, catalog?: Catalog): string {
  if (value === null || value === "" || value === "(none)") return "not given";
  if (value === "true") return "yes";
  if (value === "false") return "no";
  const row = fieldAt(field);
  const named = row ? choiceLabel(row, value, catalog) : undefined;
  if (named) return named;
  // Releases (19.21), counts and ids stay as typed; only measures get digit grouping and a unit.
  const unit = row?.unit;
  return unit === undefined || unit === null ? value : withUnit(value, unit);
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
  planned_scan_low_mb_s: { label: "Planned scan, lowest measured for one kernel NFS connection", unit: "MB/s" },
  planned_scan_high_mb_s: { label: "Planned scan, highest measured for one kernel NFS connection", unit: "MB/s" },
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
  random_8k_reads_ceiling: { label: "8 KB random reads the planned paths carry at most", unit: "a second" },
  random_8k_reads_per_read_in_flight: { label: "8 KB reads a second per read in flight", unit: "a second" },
  random_8k_reads_in_flight_to_fill: { label: "Reads in flight to reach that ceiling" },
  client_cpu_note: { label: "Host CPU" },
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
  // Plans saved before the model said µs read "wire 12.0 us (…); switches …".
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

export function changeWords(change: Change, catalog?: Catalog): ChangeWords {
  const raw = (value: string | null) => value ?? "";
  switch (change.item) {
    case "platform": {
      const field = change.answer?.field ?? change.key;
      return { name: answerName(field, change.answer?.number), ...values(change, (value) => answerValue(field, value, catalog)) };
    }
    case "expectation": {
      const name = isExpectation(change.key) ? EXPECTATION_WORDS[change.key].label : change.key.replaceAll("_", " ");
      return { name, ...values(change, (value) => expectationValue(change.key, value)) };
    }
    case "plan":
      return { name: PLAN_WORDS[change.key] ?? change.key, ...values(change, raw) };
    case "setting":
      return { name: change.setting?.name ?? change.key, ...values(change, (value) => (value === "(unset)" ? "unset (the default)" : raw(value))) };
    case "finding":
      return { name: change.finding?.message ?? change.key, ...values(change, raw) };
    case "check":
      return { name: change.check?.what ?? change.key, ...values(change, raw) };
    case "volume":
      return { name: `Volume ${change.key}`, ...values(change, raw) };
    case "mount":
      return { name: `Mount ${change.mount?.mount_point ?? change.key}`, ...values(change, raw) };
  }
}

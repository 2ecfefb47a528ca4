// A rule's `when` (the knowledge base's Conditions) as short lines a reader can follow,
// with the catalog's labels for operating systems, filer families and Oracle releases.
// Pure: no React, no fetching.
import type { Catalog, Schemas } from "../api/client";

export type Conditions = Schemas["Conditions"];
type IntRange = Schemas["IntRange"];

const ARCH_LABELS: Record<string, string> = {
  sparc: "SPARC",
  x86_64: "x86-64",
  power: "POWER",
  ia64: "Itanium (IA-64)",
};

/** "a", "a or b", "a, b or c". */
function orList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1] ?? ""}`;
}

/** "Mixed" -> "mixed", "OLTP (transactions)" -> "OLTP": a catalog label shortened to run in a sentence. */
function inSentence(label: string): string {
  const short = label.replace(/\s*\([^)]*\)\s*$/, "");
  return /^[A-Z][a-z]/.test(short) ? short.charAt(0).toLowerCase() + short.slice(1) : short;
}

interface Clause {
  op: string;
  value: string;
}

function parseRange(spec: string): Clause[] | null {
  const clauses: Clause[] = [];
  for (const part of spec.split(",")) {
    const match = /^\s*(===|==|!=|>=|<=|~=|>|<)\s*(\S+)\s*$/.exec(part);
    if (!match) return null;
    clauses.push({ op: match[1] ?? "", value: match[2] ?? "" });
  }
  return clauses.length > 0 ? clauses : null;
}

function clauseWords(clause: Clause, name: (value: string) => string): string {
  const v = name(clause.value);
  switch (clause.op) {
    case ">=":
      return `${v} and later`;
    case ">":
      return `after ${v}`;
    case "<":
      return `before ${v}`;
    case "<=":
      return `up to ${v}`;
    case "==":
    case "===":
      return `exactly ${v}`;
    case "!=":
      return `except ${v}`;
    default:
      return `${clause.op}${v}`;
  }
}

/**
 * A release range such as ">=6.5.1,<8" in words ("6.5.1 to before 8"), naming each bound with
 * `name` (a catalog label, or the raw value). Anything it cannot parse comes back as written.
 */
export function rangeInWords(spec: string, name: (value: string) => string = (v) => v): string {
  const clauses = parseRange(spec);
  if (!clauses) return spec.trim();
  const [first, second] = clauses;
  if (clauses.length === 2 && first && second) {
    const lower = [first, second].find((c) => c.op === ">=" || c.op === ">");
    const upper = [first, second].find((c) => c.op === "<" || c.op === "<=");
    if (lower && upper) {
      const from = name(lower.value);
      const to = name(upper.value);
      if (lower.op === ">=" && upper.op === "<") return `${from} to before ${to}`;
      if (lower.op === ">=") return `${from} up to and including ${to}`;
      if (upper.op === "<") return `after ${from} and before ${to}`;
      return `after ${from} up to and including ${to}`;
    }
  }
  return clauses.map((c) => clauseWords(c, name)).join(" and ");
}

/** Dotted release numbers compared numerically, "10" equal to "10.0". */
function sameVersion(a: string, b: string): boolean {
  const x = a.split(".").map((p) => Number.parseInt(p, 10));
  const y = b.split(".").map((p) => Number.parseInt(p, 10));
  if (x.some(Number.isNaN) || y.some(Number.isNaN)) return a === b;
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return false;
  }
  return true;
}

function sameRange(a: string, b: string): boolean {
  const x = parseRange(a);
  const y = parseRange(b);
  if (!x || !y || x.length !== y.length) return false;
  const key = (c: Clause) => c.op;
  const xs = [...x].sort((p, q) => key(p).localeCompare(key(q)));
  const ys = [...y].sort((p, q) => key(p).localeCompare(key(q)));
  return xs.every((c, i) => c.op === ys[i]?.op && sameVersion(c.value, ys[i]?.value ?? ""));
}

function oracleInWords(spec: string, catalog: Catalog): string {
  const releases = catalog.oracle.releases;
  const exact = releases.find((r) => sameRange(r.range, spec));
  if (exact) return exact.label;
  const labelled = (version: string) => {
    const release = releases.find((r) => {
      const lower = parseRange(r.range)?.find((c) => c.op === ">=");
      return lower !== undefined && sameVersion(lower.value, version);
    });
    if (!release) return undefined;
    return release.label.includes(version) ? release.label : `${release.label} (${version})`;
  };
  const values = parseRange(spec)?.map((c) => c.value) ?? [];
  if (values.every((v) => labelled(v) === undefined)) return `Oracle ${rangeInWords(spec)}`;
  return rangeInWords(spec, (v) => labelled(v) ?? `Oracle ${v}`);
}

/** Dotted keys compared numerically: negative, zero or positive. */
function compareKeys(a: string, b: string): number {
  const x = a.split(".").map((p) => Number.parseInt(p, 10) || 0);
  const y = b.split(".").map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const HOLDS: Record<string, (d: number) => boolean> = {
  ">=": (d) => d >= 0,
  ">": (d) => d > 0,
  "<=": (d) => d <= 0,
  "<": (d) => d < 0,
  "==": (d) => d === 0,
  "!=": (d) => d !== 0,
};

type Release = { id: string; label: string; key: string; distro?: string | null };

/** The catalog releases an os_release range accepts (it ranges over the releases' keys) when its
 * bounds name two distributions ("rhel8" to before "sles11"), where the bounds' names would
 * mislead; null otherwise. */
function releasesIn(releases: Release[], spec: string): string[] | null {
  const clauses = parseRange(spec);
  if (!clauses) return null;
  const named = clauses.map((c) => releases.find((r) => r.id === c.value));
  const distros = new Set(named.map((r) => r?.distro ?? null));
  if (distros.size < 2) return null;
  const bounds = clauses.map((c, i) => ({ holds: HOLDS[c.op], key: named[i]?.key }));
  if (bounds.some((b) => b.holds === undefined || b.key === undefined)) return null;
  return releases
    .filter((r) => bounds.every((b) => b.holds?.(compareKeys(r.key, b.key ?? "")) ?? false))
    .map((r) => r.label);
}

function osInWords(when: Conditions, catalog: Catalog): string | null {
  const names = when.os ?? [];
  if (names.length === 0) return when.os_release ? `release ${rangeInWords(when.os_release)}` : null;
  const labels = names.map((name) => catalog.os[name]?.label ?? name);
  if (!when.os_release) return orList(labels);
  const single = names.length === 1 ? catalog.os[names[0] ?? ""] : undefined;
  if (!single) return `${orList(labels)} release ${rangeInWords(when.os_release)}`;
  const taken = releasesIn(single.releases, when.os_release);
  if (taken && taken.length > 0) return orList(taken);
  return rangeInWords(when.os_release, (id) => single.releases.find((r) => r.id === id)?.label ?? id);
}

interface FamilyEntry {
  vendor: string;
  label: string;
}

function familyIndex(catalog: Catalog): Map<string, FamilyEntry> {
  const index = new Map<string, FamilyEntry>();
  for (const [vendor, choice] of Object.entries(catalog.filers)) {
    for (const family of choice.families) index.set(family.id, { vendor, label: family.label });
  }
  return index;
}

/** "Data ONTAP (7-mode)" with ">=6.5.1" -> "Data ONTAP 6.5.1 and later, 7-mode". */
function familyWithRelease(label: string, range: string): string {
  const match = /^(.*\S)\s*\(([^)]*)\)$/.exec(label);
  if (match) return `${match[1] ?? ""} ${rangeInWords(range)}, ${match[2] ?? ""}`;
  return `${label} ${rangeInWords(range)}`;
}

function filerInWords(when: Conditions, catalog: Catalog): string[] {
  const lines: string[] = [];
  const families = familyIndex(catalog);
  const vendors = when.filer_vendor ?? [];
  const familyIds = when.filer_family ?? [];
  const vendorLabel = (id: string) => catalog.filers[id]?.label ?? id;
  const release = when.filer_release ?? null;
  const releaseWithFamily = release !== null && familyIds.length === 1;
  // A listed family already names its vendor; say the vendor only when it adds something.
  const vendorImplied = familyIds.length > 0 && vendors.every((v) => familyIds.some((f) => families.get(f)?.vendor === v));
  if (vendors.length > 0 && (!vendorImplied || (release !== null && !releaseWithFamily))) {
    const names = orList(vendors.map(vendorLabel));
    lines.push(release !== null && !releaseWithFamily ? `${names} release ${rangeInWords(release)}` : names);
  } else if (vendors.length === 0 && release !== null && !releaseWithFamily) {
    lines.push(`filer release ${rangeInWords(release)}`);
  }
  if (familyIds.length > 0) {
    const labels = familyIds.map((id) => families.get(id)?.label ?? id);
    lines.push(releaseWithFamily && release !== null ? familyWithRelease(labels[0] ?? "", release) : orList(labels));
  }
  return lines;
}

/** An inclusive range of counts in words, with the noun in singular and plural. */
function countInWords(range: IntRange, one: string, many: string): string | null {
  const { min, max } = range;
  const noun = (n: number) => (n === 1 ? one : many);
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) {
    if (min === max) return min === 0 ? `no ${many}` : `exactly ${min} ${noun(min)}`;
    return `${min}–${max} ${many}`;
  }
  if (hasMin) return `${min} or more ${many}`;
  if (hasMax) return max === 0 ? `no ${many}` : `at most ${max} ${noun(max)}`;
  return null;
}

function gbpsInWords(range: IntRange): string | null {
  const { min, max } = range;
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) return min === max ? `${min} Gb/s NICs` : `${min}–${max} Gb/s NICs`;
  if (hasMin) return `NICs of ${min} Gb/s or faster`;
  if (hasMax) return `NICs of ${max} Gb/s or slower`;
  return null;
}

function memoryInWords(range: IntRange): string | null {
  const { min, max } = range;
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) return min === max ? `memory exactly ${min} GB` : `memory ${min}–${max} GB`;
  if (hasMin) return `memory ${min} GB or more`;
  if (hasMax) return `memory up to ${max} GB`;
  return null;
}

/** The conditions a rule actually sets, any_of and none_of included, without the nulls the API sends. */
export function givenConditions(when: Conditions): Conditions {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(when) as [string, unknown][]) {
    if (value === null || value === undefined) continue;
    out[key] = (key === "any_of" || key === "none_of") && Array.isArray(value) ? (value as Conditions[]).map(givenConditions) : value;
  }
  return out as Conditions;
}

function onOff(value: boolean): string {
  return value ? "on" : "off";
}

/**
 * Each condition of a sub-set joined into one phrase, for any_of and none_of. Semicolons, not
 * "and": single lines already hold "or" lists, commas and "and later".
 */
function group(when: Conditions, catalog: Catalog): string {
  const lines = conditionsInWords(when, catalog);
  return lines.length === 0 ? "any platform" : lines.join("; ");
}

/**
 * One sentence-like line per condition of a rule, e.g. "Data ONTAP 6.5.1 and later, 7-mode",
 * "RAC", "NFSv4.1". An empty list means the rule applies on every platform. Ids the catalog
 * does not know are shown as they are.
 */
export function conditionsInWords(when: Conditions, catalog: Catalog): string[] {
  const lines: (string | null)[] = [];
  const push = (line: string | null) => lines.push(line);

  push(osInWords(when, catalog));
  if (when.arch?.length) push(orList(when.arch.map((a) => ARCH_LABELS[a] ?? a)));
  for (const line of filerInWords(when, catalog)) push(line);
  if (when.oracle) push(oracleInWords(when.oracle, catalog));
  if (when.bits !== null && when.bits !== undefined) push(`${when.bits}-bit Oracle`);
  if (when.rac !== null && when.rac !== undefined) push(when.rac ? "RAC" : "single instance");
  if (when.instances) push(countInWords(when.instances, "database instance on the host", "database instances on the host"));
  if (when.dnfs !== null && when.dnfs !== undefined) push(when.dnfs ? "Direct NFS on" : "kernel NFS (Direct NFS off)");
  if (when.nfs_version?.length) {
    push(orList(when.nfs_version.map((v) => catalog.nfs_versions.find((c) => c.id === v)?.label ?? `NFS ${v}`)));
  }
  if (when.workload?.length) {
    const names = when.workload.map((w) => {
      const label = catalog.workloads.find((c) => c.id === w)?.label;
      return label ? inSentence(label) : w;
    });
    push(`${orList(names)} workload`);
  }
  if (when.archivelog !== null && when.archivelog !== undefined) push(`archivelog ${onOff(when.archivelog)}`);
  if (when.memory_gb) push(memoryInWords(when.memory_gb));
  if (when.oracle_home) push(when.oracle_home === "nas" ? "ORACLE_HOME on the filer" : "ORACLE_HOME on local disk");
  if (when.volumes) {
    push(when.volumes === "separate" ? "volumes separate (data; redo and control; archive)" : "volumes shared (data, redo and control in one)");
  }
  if (when.nic_gbps) push(gbpsInWords(when.nic_gbps));
  if (when.nic_count) push(countInWords(when.nic_count, "NIC", "NICs"));
  if (when.nic_driver?.length) push(`NIC driver ${orList(when.nic_driver)}`);
  if (when.jumbo_frames !== null && when.jumbo_frames !== undefined) push(`jumbo frames ${onOff(when.jumbo_frames)}`);
  if (when.switch?.length) {
    push(
      orList(
        when.switch.map((s) => {
          const label = catalog.network.switch_kinds.find((k) => k.id === s)?.label;
          return label ? label.charAt(0).toLowerCase() + label.slice(1) : s;
        }),
      ),
    );
  }
  if (when.switch_hops) push(countInWords(when.switch_hops, "switch hop", "switch hops"));
  if (when.router_hops) push(countInWords(when.router_hops, "router hop", "router hops"));
  if (when.dedicated_storage_network !== null && when.dedicated_storage_network !== undefined) {
    push(when.dedicated_storage_network ? "dedicated storage network" : "no dedicated storage network");
  }
  if (when.any_of?.length) push(`any of: ${when.any_of.map((c) => `(${group(c, catalog)})`).join(" or ")}`);
  if (when.none_of?.length) {
    const parts = when.none_of.map((c) => group(c, catalog));
    push(`not when: ${parts.length === 1 ? (parts[0] ?? "") : parts.map((p) => `(${p})`).join(" or ")}`);
  }
  return lines.filter((line): line is string => line !== null && line !== "");
}

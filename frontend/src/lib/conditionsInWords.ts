// A rule's `when` (the knowledge base's Conditions) as short lines a reader can follow,
// with the catalog's labels for operating systems, filer families and Oracle releases.
// Pure: no React, no fetching.
import type { Catalog, Schemas } from "../api/client";

export type Conditions = Schemas["Conditions"];
type IntRange = Schemas["IntRange"];

/** "a", "a or b", "a, b or c". */
function orList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1] ?? ""}`;
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

type ConditionField = Catalog["condition_fields"][number];
// Said within the OS and filer phrases above them.
const SPOKEN_WITH_OTHERS = new Set(["os_release", "filer_family", "filer_release"]);
type CountWords = NonNullable<ConditionField["counts"]>;

function fill(template: string, values: Record<string, number>): string {
  return template.replace(/\{(n|min|max)\}/g, (_, key: string) => String(values[key] ?? ""));
}

/** An inclusive range in the field's words ("exactly 1 NIC", "2 or more NICs", "no switch hops"). */
function countInWords(range: IntRange, words: CountWords): string | null {
  const { min, max } = range;
  const noun = (n: number) => (n === 1 ? words.one : words.many);
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) {
    if (min === max) {
      if (words.exactly) return fill(words.exactly, { n: min });
      return min === 0 ? `no ${words.many}` : `exactly ${min} ${noun(min)}`;
    }
    return words.between ? fill(words.between, { min, max }) : `${min}–${max} ${words.many}`;
  }
  if (hasMin) return words.at_least ? fill(words.at_least, { n: min }) : `${min} or more ${words.many}`;
  if (hasMax) {
    if (words.at_most) return fill(words.at_most, { n: max });
    return max === 0 ? `no ${words.many}` : `at most ${max} ${noun(max)}`;
  }
  return null;
}

/** One condition in the words the knowledge base declares for its field. */
function fieldInWords(field: ConditionField, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field.kind === "equals") return field.values[String(value)] ?? `${field.noun} ${String(value)}`;
  if (field.kind === "one_of" && Array.isArray(value) && value.length > 0) {
    const names = (value as unknown[]).map((v) => field.values[String(v)] ?? String(v));
    return field.template.replace("{values}", orList(names));
  }
  if (field.kind === "int_range" && field.counts) return countInWords(value as IntRange, field.counts);
  if (typeof value === "string") return `${field.noun} ${rangeInWords(value)}`;
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
  const given = when as Record<string, unknown>;
  for (const field of catalog.condition_fields) {
    // The OS, the filer and the Oracle release read in the catalog's own labels, each as one phrase.
    if (field.name === "os") push(osInWords(when, catalog));
    else if (field.name === "filer_vendor") for (const line of filerInWords(when, catalog)) push(line);
    else if (field.name === "oracle") push(when.oracle ? oracleInWords(when.oracle, catalog) : null);
    else if (!SPOKEN_WITH_OTHERS.has(field.name)) push(fieldInWords(field, given[field.name]));
  }
  if (when.any_of?.length) push(`any of: ${when.any_of.map((c) => `(${group(c, catalog)})`).join(" or ")}`);
  if (when.none_of?.length) {
    const parts = when.none_of.map((c) => group(c, catalog));
    push(`not when: ${parts.length === 1 ? (parts[0] ?? "") : parts.map((p) => `(${p})`).join(" or ")}`);
  }
  return lines.filter((line): line is string => line !== null && line !== "");
}

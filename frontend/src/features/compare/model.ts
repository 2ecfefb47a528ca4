// The what-if comparison: a base platform (the wizard's answers, in the wizard's own URL format)
// and up to three variants, each a set of changed answers stored next to it in the URL as
// `w1.label=…&w1.oracle.dnfs=1` (same dotted keys and value encoding as the base).
import { countRounded, rateWords } from "../../lib/figures";
import type { Catalog, Platform, Schemas } from "../../api/client";
import { type Draft, type Section, DEFAULT_DRAFT, decodeDraft, encodeDraft, toPlatform } from "../../lib/draft";
import { type FieldErrors, validateDraft } from "../../lib/validation";
import { ANSWER_LABELS } from "../designs/answerWords";

export const MAX_VARIANTS = 3;
const SECTIONS: Section[] = ["host", "network", "oracle", "filer", "layout"];

/** A changed answer, keyed `section.field`, valued as in the draft. */
export type Patch = Record<string, string | boolean>;

export interface Variant {
  /** The name the user gave; empty means "name it after its changes". */
  label: string;
  patch: Patch;
}

export interface CompareState {
  base: Draft;
  /** A saved design whose latest revision is the base (then `base` is not in the URL). */
  design: string | null;
  variants: Variant[];
}

function defaultOf(key: string): string | boolean | undefined {
  const [section, field] = key.split(".") as [Section, string];
  if (!SECTIONS.includes(section)) return undefined;
  return (DEFAULT_DRAFT[section] as unknown as Record<string, string | boolean>)[field];
}

export function draftValue(draft: Draft, key: string): string | boolean | undefined {
  const [section, field] = key.split(".") as [Section, string];
  if (!SECTIONS.includes(section)) return undefined;
  return (draft[section] as unknown as Record<string, string | boolean>)[field];
}

const prefix = (index: number) => `w${index + 1}.`;

export function decodeCompare(search: string | URLSearchParams): CompareState {
  const params = new URLSearchParams(search);
  const variants: Variant[] = [];
  for (let index = 0; index < MAX_VARIANTS; index += 1) {
    const start = prefix(index);
    let present = false;
    const variant: Variant = { label: "", patch: {} };
    for (const [key, raw] of params) {
      if (!key.startsWith(start)) continue;
      present = true;
      const name = key.slice(start.length);
      if (name === "label") {
        variant.label = raw;
        continue;
      }
      const fallback = defaultOf(name);
      if (fallback === undefined) continue;
      variant.patch[name] = typeof fallback === "boolean" ? raw === "1" || raw === "true" : raw;
    }
    if (present) variants.push(variant);
  }
  return { base: decodeDraft(params), design: params.get("design"), variants };
}

export function encodeCompare(state: CompareState): URLSearchParams {
  const extra: Record<string, string> = {};
  if (state.design) extra.design = state.design;
  state.variants.slice(0, MAX_VARIANTS).forEach((variant, index) => {
    const start = prefix(index);
    // A variant with nothing in it still needs a key to exist in the link.
    extra[`${start}label`] = variant.label;
    for (const [key, value] of Object.entries(variant.patch)) {
      extra[`${start}${key}`] = typeof value === "boolean" ? (value ? "1" : "0") : value;
    }
  });
  // A design's answers come from the server: only the id travels.
  return encodeDraft(state.design ? DEFAULT_DRAFT : state.base, extra);
}

/** The base with the variant's answers applied. */
export function applyPatch(base: Draft, patch: Patch): Draft {
  const draft = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    const [section, field] = key.split(".") as [Section, string];
    const values = draft[section] as unknown as Record<string, string | boolean> | undefined;
    if (values && field in values) values[field] = value;
  }
  return draft;
}

/** Set one answer of a variant; an answer equal to the base's is no change and leaves the patch. */
export function setAnswer(base: Draft, patch: Patch, key: string, value: string | boolean): Patch {
  const rest = Object.fromEntries(Object.entries(patch).filter(([name]) => name !== key));
  return draftValue(base, key) === value ? rest : { ...rest, [key]: value };
}

/** Drop answers that no longer differ from the base (after the base changed). */
export function effectivePatch(base: Draft, patch: Patch): Patch {
  return Object.fromEntries(Object.entries(patch).filter(([key, value]) => draftValue(base, key) !== value));
}

/** The API's patch: the changed answers, typed as the platform types them. */
export function apiPatch(base: Draft, patch: Patch): Record<string, Record<string, unknown>> {
  const platform = toPlatform(applyPatch(base, patch)) as unknown as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of Object.keys(effectivePatch(base, patch))) {
    const [section, field] = key.split(".") as [string, string];
    const value = platform[section]?.[field];
    out[section] = { ...(out[section] ?? {}), [field]: value };
  }
  return out;
}

/** Plain names of the answers, as the wizard labels them (the one table in answerWords), and
 * the variant's own name. */
export const FIELD_LABELS: Readonly<Record<string, string>> = { ...ANSWER_LABELS, label: "Name of the variant" };

/** A short phrase for one changed answer ("Direct NFS", "25 GbE", "DSS workload"). */
function describe(key: string, value: string | boolean): string {
  switch (key) {
    case "oracle.dnfs":
      return value ? "Direct NFS" : "kernel NFS";
    case "network.jumbo_frames":
      return value ? "jumbo frames" : "no jumbo frames";
    case "network.nic_gbps":
      return `${String(value)} GbE`;
    case "network.nic_count":
      return `${String(value)} NIC${value === "1" ? "" : "s"}`;
    case "oracle.workload":
      return `${String(value).toUpperCase()} workload`;
    case "oracle.version":
      return `Oracle ${String(value)}`;
    case "filer.os_version":
      return `filer ${String(value)}`;
    default:
      return `${FIELD_LABELS[key] ?? key}: ${typeof value === "boolean" ? (value ? "on" : "off") : value}`;
  }
}

export function autoLabel(base: Draft, patch: Patch): string {
  const parts = Object.entries(effectivePatch(base, patch)).map(([key, value]) => describe(key, value));
  if (parts.length === 0) return "New variant";
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function variantLabel(base: Draft, variant: Variant): string {
  const given = variant.label.trim();
  return given ? given.slice(0, 80) : autoLabel(base, variant.patch).slice(0, 80);
}

export interface QuickWhatIf {
  id: string;
  label: string;
  patch: Patch;
}

/** The common what-ifs that make sense for this base. */
export function quickWhatIfs(base: Draft, catalog: Catalog | undefined): QuickWhatIf[] {
  const quick: QuickWhatIf[] = [];
  if (!base.oracle.dnfs) quick.push({ id: "dnfs", label: "Direct NFS", patch: { "oracle.dnfs": true } });
  if (!base.network.jumbo_frames) quick.push({ id: "jumbo", label: "Jumbo frames", patch: { "network.jumbo_frames": true } });
  const count = Number(base.network.nic_count);
  if (Number.isInteger(count) && count >= 1 && count < 16) {
    quick.push({ id: "path", label: "One more path", patch: { "network.nic_count": String(count + 1) } });
  }
  const speeds = (catalog?.network.nic_speeds ?? []).map((s) => s.gbps).sort((a, b) => a - b);
  const faster = speeds.find((gbps) => gbps > Number(base.network.nic_gbps));
  if (faster !== undefined && speeds.includes(Number(base.network.nic_gbps))) {
    quick.push({
      id: "speed",
      label: `${base.network.nic_gbps} → ${faster} GbE`,
      patch: { "network.nic_gbps": String(faster) },
    });
  }
  return quick;
}

/** Problems of a variant's own answers (the base's are shown with the base). */
export function variantErrors(base: Draft, variant: Variant, filerReleaseRequired: boolean): FieldErrors {
  const all = validateDraft(applyPatch(base, variant.patch), filerReleaseRequired);
  const errors: FieldErrors = {};
  for (const key of Object.keys(variant.patch)) if (all[key]) errors[key] = all[key];
  const label = variant.label;
  if (label.length > 80) errors.label = "at most 80 characters";
  // The server's rule: no control (Cc) or format (Cf) characters, no line or paragraph separator.
  else if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(label)) errors.label = "use one line of ordinary characters";
  return errors;
}

/** The server's wording, made to read after a field name ("should be 1, 10, 25, 40 or 100"). */
export function plainMessage(message: string): string {
  const text = message
    .replace(/^Value error, /, "")
    .replace(/^Input should be /, "should be ")
    .replace(/^String should match pattern .*$/, "is not in the expected form")
    .replace(/^Extra inputs are not permitted$/, "is not an answer nasplan knows")
    .replace(/^Field required$/, "is missing");
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export interface Refusal {
  /** `variant` index into the sent variants, or null for the base. */
  variant: number | null;
  /** `section.field`, `label`, or "" when the server named no answer we show. */
  key: string;
  message: string;
}

/** Where a 422 `loc` points: ["variants", 1, "patch", "network", "nic_gbps"] → variant 1, network.nic_gbps. */
export function locateRefusal(loc: (string | number)[], message: string): Refusal {
  const parts = loc.filter((part) => part !== "body");
  let variant: number | null = null;
  let rest = parts;
  if (parts[0] === "variants" && typeof parts[1] === "number") {
    variant = parts[1];
    rest = parts.slice(2);
    if (rest[0] === "patch" || rest[0] === "platform") rest = rest.slice(1);
  } else if (parts[0] === "base") {
    rest = parts.slice(1);
  }
  const candidate = rest.slice(0, 2).join(".");
  const key = rest[0] === "label" ? "label" : candidate in FIELD_LABELS ? candidate : "";
  return { variant, key, message: plainMessage(message) };
}

/** Refusals from a failed what-if request, when the server named fields. */
export function refusalsOf(error: unknown): Refusal[] {
  const problems = (error as { problems?: { field: string; message: string }[] } | null)?.problems ?? [];
  return problems.map((problem) =>
    locateRefusal(
      problem.field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      problem.message,
    ),
  );
}

type Pair = Schemas["ExpectationPair"];

const MODEL_FIGURES: Record<string, { label: string; unit: string; higherIsBetter: boolean }> = {
  planned_scan_mb_s: { label: "Large parallel scan", unit: "MB/s", higherIsBetter: true },
  single_stream_mb_s: { label: "One serial stream", unit: "MB/s", higherIsBetter: true },
  pipelined_stream_mb_s: { label: "One pipelined stream", unit: "MB/s", higherIsBetter: true },
  aggregate_ceiling_mb_s: { label: "All storage links", unit: "MB/s", higherIsBetter: true },
  nic_payload_ceiling_mb_s: { label: "One link", unit: "MB/s", higherIsBetter: true },
  rtt_us: { label: "Round trip of one read", unit: "µs", higherIsBetter: false },
  nfs_overhead_8k_us: { label: "NFS overhead per 8 KB read", unit: "µs", higherIsBetter: false },
  overhead_vs_disk_pct: { label: "Overhead against a disk read", unit: "%", higherIsBetter: false },
  tcp_window_bytes: { label: "TCP window needed", unit: "bytes", higherIsBetter: false },
  random_8k_reads_ceiling: { label: "8 KB random reads, at most", unit: "a second", higherIsBetter: true },
};

const TEXT_FIGURES: Record<string, string> = {
  planned_client: "Client for the database files",
  bottleneck: "Bottleneck",
};

export function figureName(field: string): string {
  return MODEL_FIGURES[field]?.label ?? TEXT_FIGURES[field] ?? field.replace(/_/g, " ");
}

export function formatFigure(field: string, value: Pair["base"]): string {
  if (value === null || value === undefined) return "not modelled";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  const unit = MODEL_FIGURES[field]?.unit ?? "";
  const rounded =
    unit === "a second" ? countRounded(value) : unit === "MB/s" || unit === "bytes" || unit === "µs" ? Math.round(value) : value;
  return `${rounded.toLocaleString("en-US")}${unit ? ` ${unit}` : ""}`;
}

export function isNumericPair(pair: Pair): boolean {
  return typeof pair.base === "number" || typeof pair.variant === "number";
}

/** "better", "worse" or "same" for a numeric model figure. */
export function direction(pair: Pair): "better" | "worse" | "same" | "unknown" {
  const meta = MODEL_FIGURES[pair.field];
  if (typeof pair.base !== "number" || typeof pair.variant !== "number" || !meta) return "unknown";
  if (Math.abs(pair.variant - pair.base) < 1e-9) return "same";
  return pair.variant > pair.base === meta.higherIsBetter ? "better" : "worse";
}

/** What held a figure back, from the model's bottleneck sentence ("One TCP connection: …"). */
function limitOf(pairs: Pair[], side: "base" | "variant"): string | null {
  const text = pairs.find((pair) => pair.field === "bottleneck")?.[side];
  if (typeof text !== "string" || !text.includes(":")) return null;
  const name = text.slice(0, text.indexOf(":")).trim();
  return name.charAt(0).toLowerCase() + name.slice(1);
}

const RATES = new Set(["planned_scan_mb_s", "single_stream_mb_s", "aggregate_ceiling_mb_s"]);

/** One sentence from the model's figures, told as what changed and why: "large scan about 7.4
 * times as fast: 3.1 GB/s instead of 416 MB/s (the limit was one TCP connection, now link
 * bandwidth)". When the model moves no figure but a source measured a change of this kind, it
 * says the model does not see it rather than "no change", which the measurement below would
 * contradict. */
export function headline(pairs: Pair[], measured = 0): string {
  const byField = new Map(pairs.map((pair) => [pair.field, pair]));
  const phrases: Record<string, string> = {
    planned_scan_mb_s: "large scan",
    single_stream_mb_s: "one serial stream",
    aggregate_ceiling_mb_s: "all links together",
    rtt_us: "round trip",
  };
  for (const field of Object.keys(phrases)) {
    const pair = byField.get(field);
    if (!pair || typeof pair.base !== "number" || typeof pair.variant !== "number") continue;
    if (Math.round(pair.base) === Math.round(pair.variant)) continue;
    if (!RATES.has(field)) {
      const unit = MODEL_FIGURES[field]?.unit ?? "";
      return `${phrases[field]} about ${Math.round(pair.variant).toLocaleString("en-US")} ${unit} instead of ${Math.round(pair.base).toLocaleString("en-US")}`;
    }
    const figures = `${rateWords(pair.variant)} instead of ${rateWords(pair.base)}`;
    const ratio = pair.variant / pair.base;
    const change =
      ratio >= 1.5
        ? `about ${ratio.toFixed(1)} times as fast: ${figures}`
        : ratio <= 1 / 1.5
          ? `about ${(1 / ratio).toFixed(1)} times slower: ${figures}`
          : `about ${figures}`;
    const before = limitOf(pairs, "base");
    const after = limitOf(pairs, "variant");
    const why = before && after && before !== after ? ` (the limit was ${before}, now ${after})` : "";
    return `${phrases[field]} ${change}${why}`;
  }
  return measured > 0
    ? "nasplan's model moves no throughput or round-trip figure for this change; the sources measured one (below)"
    : "no change in the modelled throughput or round trip";
}

/** The whole request, or null when nothing can be compared yet. */
export function whatIfBody(
  base: Draft,
  variants: { variant: Variant; index: number }[],
): { body: Schemas["WhatIfRequest"]; sent: number[] } | null {
  if (variants.length === 0) return null;
  const platform: Platform = toPlatform(base);
  return {
    body: {
      base: platform,
      variants: variants.map(({ variant }) => ({ label: variantLabel(base, variant), patch: apiPatch(base, variant.patch) })),
    },
    sent: variants.map(({ index }) => index),
  };
}

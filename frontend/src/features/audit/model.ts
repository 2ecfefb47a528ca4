// What the /audit page sends and how it turns the report into Markdown.
import type { Catalog, Platform, Schemas } from "../../api/client";
import { type Draft, adjustDependent } from "../../lib/draft";

export type AuditReport = Schemas["AuditReport"];
export type AuditFinding = Schemas["AuditFinding"];
export type FileKind = Schemas["Paste"]["kind"];

export interface PasteDraft {
  id: number;
  name: string;
  kind: FileKind;
  text: string;
}

export const ROLE_CHOICES = [
  "data",
  "redo",
  "control",
  "archive",
  "oracle_home",
  "crs",
  "backup",
  "other",
] as const;
export type DeclaredRole = (typeof ROLE_CHOICES)[number];

/** What a line's role rests on, in words (the report's `basis`, surest first). */
export const BASIS_WORDS: Record<Schemas["RoleAssignment"]["basis"], string> = {
  yours: "your answer",
  planned: "the planned mount point",
  named: "read from its name",
  inferred: "inferred: check it",
  unknown: "not known: say what it holds",
};

/** Each kind a paste may be given, as the catalog names it, after "Recognise it". */
export function kindLabels(catalog: Catalog): Record<string, string> {
  return { auto: "Recognise it", ...Object.fromEntries(catalog.file_kinds.map((kind) => [kind.id, kind.label])) };
}

export function auditBody(
  platform: Platform,
  pastes: PasteDraft[],
  roles: Record<string, DeclaredRole>,
): Schemas["AuditRequest"] {
  return {
    platform,
    pastes: pastes
      .filter((p) => p.text.trim() !== "")
      .map((p) => ({ name: p.name.trim() || `paste ${p.id}`, kind: p.kind, text: p.text })),
    roles: Object.fromEntries(Object.entries(roles).map(([point, role]) => [point, [role]])),
  };
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Findings by file, each file's errors first. */
export function byFile(report: AuditReport): [string, AuditFinding[]][] {
  const groups = new Map<string, AuditFinding[]>();
  for (const finding of report.findings) {
    const list = groups.get(finding.file) ?? [];
    list.push(finding);
    groups.set(finding.file, list);
  }
  for (const list of groups.values()) {
    list.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.line ?? 0) - (b.line ?? 0));
  }
  return [...groups.entries()];
}

/** One line's findings together: what to act on, with the rule of each part and one fix. */
export interface LineFindings {
  line: number | null;
  severity: AuditFinding["severity"];
  findings: AuditFinding[];
  fix: string | null;
  appliesWith: string | null;
}

/** A file's findings grouped by line, the worst line first; findings about no line stay alone. */
export function byLine(findings: AuditFinding[]): LineFindings[] {
  const groups: LineFindings[] = [];
  const at = new Map<number, LineFindings>();
  for (const f of findings) {
    const existing = f.line != null ? at.get(f.line) : undefined;
    if (existing) {
      existing.findings.push(f);
      continue;
    }
    const group: LineFindings = { line: f.line ?? null, severity: f.severity, findings: [f], fix: null, appliesWith: null };
    groups.push(group);
    if (f.line != null) at.set(f.line, group);
  }
  for (const group of groups) {
    group.findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    const worst = group.findings[0];
    const fixed = group.findings.find((f) => f.fix);
    if (worst) group.severity = worst.severity;
    group.fix = fixed?.fix ?? null;
    group.appliesWith = fixed?.applies_with ?? null;
  }
  return groups.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.line ?? 0) - (b.line ?? 0));
}

/** Lines to act on by their worst finding (the server's count over the whole paste); older
 * reports without it are counted from their list. */
export function lineCounts(report: AuditReport): Record<"error" | "warning" | "info", number> {
  const result = { error: 0, warning: 0, info: 0 };
  if (report.line_counts && Object.keys(report.line_counts).length > 0) {
    return { ...result, ...report.line_counts };
  }
  for (const [, findings] of byFile(report)) {
    for (const group of byLine(findings)) result[group.severity] += 1;
  }
  return result;
}

/** Findings by severity over the whole paste: the server's counts include the findings an answer
 * leaves out past its cap; older reports without them are counted from their list. */
export function counts(report: AuditReport): Record<"error" | "warning" | "info", number> {
  const result = { error: 0, warning: 0, info: 0 };
  if (report.severity_counts && Object.keys(report.severity_counts).length > 0) {
    return { ...result, ...report.severity_counts };
  }
  for (const f of report.findings) result[f.severity] += 1;
  return result;
}

/** What the answer leaves out of a very large paste, in words; empty when nothing is left out. */
export function omissions(report: AuditReport): string[] {
  const notes: string[] = [];
  if (report.findings_omitted > 0) {
    notes.push(
      `Only the first ${report.findings.length} findings are listed (the most severe first); ` +
        `${report.findings_omitted} more are counted above but not shown. Paste fewer lines to see them.`,
    );
  }
  const tooLarge = report.corrected_omitted ?? [];
  if (tooLarge.length > 0) {
    notes.push(`No corrected copy of ${tooLarge.join(", ")}: the file is too large to hand back.`);
  }
  return notes;
}

/** The report as Markdown, for a ticket or a chat. */
export function toMarkdown(report: AuditReport): string {
  const c = lineCounts(report);
  const lines = [
    "# nasplan audit",
    "",
    `Knowledge base ${report.kb_version}, advice as of ${report.as_of}. Score: ${report.score ?? "n/a"}%. ` +
      `Lines to act on: ${c.error} with errors, ${c.warning} with warnings, ${c.info} with notes.`,
  ];
  for (const [file, findings] of byFile(report)) {
    lines.push("", `## ${file}`, "");
    for (const group of byLine(findings)) {
      const where = group.line ? `line ${group.line}` : "whole file";
      lines.push(`- **${group.severity.toUpperCase()}** ${where}`);
      for (const f of group.findings) lines.push(`  - ${f.severity} (${f.rule}): ${f.message}`);
      if (group.fix) {
        const needs = group.appliesWith ? ` (needs: ${group.appliesWith})` : "";
        lines.push(`  - use: \`${group.fix.replace(/`/g, "'")}\`${needs}`);
      }
    }
  }
  const left = omissions(report);
  if (left.length > 0) lines.push("", ...left.map((note) => `> ${note}`));
  if (report.not_checked && report.not_checked.length > 0) {
    lines.push("", "## Not checked", "");
    for (const line of report.not_checked) lines.push(`- ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

export type PlatformSuggestion = Schemas["PlatformSuggestion"];

/** The wizard's answers with one suggestion from the pastes applied (dependent answers kept valid). */
export function applySuggestion(draft: Draft, suggestion: PlatformSuggestion, catalog: Catalog): Draft {
  const next: Draft = structuredClone(draft);
  if (suggestion.field === "host.os") {
    next.host.os = suggestion.value;
    return adjustDependent(next, catalog, "host", "os");
  }
  if (suggestion.field === "oracle.version") next.oracle.version = suggestion.value;
  else next.filer.os_version = suggestion.value;
  return next;
}

export type CollectionReport = Schemas["CollectionReport"];
export type InferredAnswer = Schemas["InferredAnswer"];

/** The draft with the answers a collection shows, as the user confirmed them. An answer the
 * catalog does not offer (a link speed it has no choice for) is left out. */
export function applyAnswers(draft: Draft, answers: InferredAnswer[], catalog: Catalog): Draft {
  let next: Draft = structuredClone(draft);
  const host = answers.find((a) => a.field === "host.os");
  if (host && typeof host.value === "string" && catalog.os[host.value]) {
    next.host.os = host.value;
    next = adjustDependent(next, catalog, "host", "os");
  }
  const vendor = answers.find((a) => a.field === "filer.vendor");
  if (vendor && typeof vendor.value === "string" && catalog.filers[vendor.value]) {
    next.filer.vendor = vendor.value;
    next = adjustDependent(next, catalog, "filer", "vendor");
  }
  for (const answer of answers) {
    const { field, value } = answer;
    if (field === "host.os_version" && typeof value === "string") {
      if (catalog.os[next.host.os]?.releases.some((r) => r.id === value)) next.host.os_version = value;
    } else if (field === "oracle.version" && typeof value === "string") {
      next.oracle.version = value;
    } else if (field === "oracle.dnfs" && typeof value === "boolean") {
      next.oracle.dnfs = value;
    } else if (field === "network.jumbo_frames" && typeof value === "boolean") {
      next.network.jumbo_frames = value;
    } else if (field === "filer.os_version" && typeof value === "string") {
      const known = (catalog.filers[next.filer.vendor]?.families ?? []).flatMap((f) => f.known);
      if (known.includes(value)) next.filer.os_version = value;
    } else if (field === "network.nic_gbps" && typeof value === "number") {
      if (catalog.network.nic_speeds.some((s) => s.gbps === value)) next.network.nic_gbps = String(value);
    }
  }
  return next;
}

/** What a saved design says for a field a collection answers, as the answer would write it. */
function designValue(draft: Draft, field: string): string | boolean | number | undefined {
  const [section, key] = field.split(".");
  const value = (draft as unknown as Record<string, Record<string, string | boolean> | undefined>)[section ?? ""]?.[key ?? ""];
  if (field === "network.nic_gbps" && typeof value === "string") return Number(value);
  return value;
}

export interface AnswerAgainstDesign {
  answer: InferredAnswer;
  /** The design's own value, in the draft's words ("" where it gives none). */
  design: string;
  agrees: boolean;
}

/** Each answer a collection gives beside what the saved design says: the host as built against
 * the design. An Oracle release agrees when the host's is the design's or starts with it. */
export function againstDesign(draft: Draft, answers: InferredAnswer[]): AnswerAgainstDesign[] {
  return answers.map((answer) => {
    const planned = designValue(draft, answer.field);
    const shown = answer.value;
    const agrees =
      planned === shown ||
      (answer.field === "oracle.version" && typeof planned === "string" && typeof shown === "string" && shown.startsWith(`${planned}.`));
    return { answer, design: designWords(answer.field, planned), agrees };
  });
}

/** The design's value in the words the collection's answers use. */
function designWords(field: string, value: string | boolean | number | undefined): string {
  if (value === undefined || value === "") return "";
  if (field === "network.jumbo_frames") return value ? "jumbo frames" : "standard frames (MTU 1500)";
  if (field === "oracle.dnfs") return value ? "Direct NFS" : "kernel NFS";
  if (field === "network.nic_gbps") return `${value} Gb/s`;
  return String(value);
}

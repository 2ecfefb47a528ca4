/**
 * Time travel as a story: the compare response's changes turned into
 *
 * 1. headlines — advice that was reversed (a setting's value changed, a mount option swapped
 *    for another), phrased "minra on → off, since TR-3322's May 2009 revision";
 * 2. option edits — each changed mount line token by token (`intr → nointr`, `+suid`,
 *    `−actimeo=0`, `rsize=32768 → rsize=65536`);
 * 3. the rest, grouped by kind of item, one line each.
 *
 * Rule ids stay out of the sentences: each item keeps them for a collapsed "Rules" list.
 * Pure functions only; the rule explanations (for source titles and dates) are passed in.
 */
import type { Change, RuleExplanation } from "../../api/client";

/** What the story may know about rules and sources beyond the changes themselves. */
export interface StoryContext {
  /** Rule explanations by id (GET /api/v1/knowledge/explanations). */
  rules?: Record<string, RuleExplanation>;
  /** Short names of sources by id ("tr-3322" → "TR-3322"), where a source has a number. */
  sourceNames?: Record<string, string>;
  /** What set the two plans apart: their dates (time travel, drift) or their platforms on one
   * date (what-if), where a rule comes or goes because of the answers, never of a date. */
  cause?: "date" | "platform";
}

/** A token-level edit of a mount's option list. */
export type OptionEdit =
  | { kind: "swapped"; from: string; to: string }
  | { kind: "added"; token: string }
  | { kind: "removed"; token: string };

/** Advice that was reversed: one setting, or one option swap on one or more mounts. */
export interface Headline {
  /** A setting whose value changed, or a mount option swapped for another. */
  kind: "setting" | "option";
  /** What the advice is about: the setting's key ("minra") or the option ("intr"). */
  subject: string;
  before: string;
  after: string;
  /** Where it applies, in words: "filer, volume prod_data" or "mounts archive, data". */
  where: string;
  /** "since TR-3322's May 2009 revision", or null when nothing says when. */
  since: string | null;
  /** The date the newer advice took effect (ISO), or null. */
  on: string | null;
  /** Why the advice changed, in words (no rule ids), or null. */
  why: string | null;
  /** The changes behind the headline (one setting, or every mount with the swap). */
  changes: Change[];
  /** The rules that were replaced and the rules that replaced them. */
  rulesBefore: string[];
  rulesAfter: string[];
}

/** A changed mount line, its options token by token. */
export interface MountLine {
  change: Change;
  exportBefore: string;
  exportAfter: string;
  edits: OptionEdit[];
}

export interface StoryGroup {
  item: Change["item"];
  title: string;
  changes: Change[];
}

export interface Story {
  headlines: Headline[];
  mounts: MountLine[];
  groups: StoryGroup[];
}

const GROUPS: { item: Change["item"]; title: string }[] = [
  { item: "setting", title: "Settings" },
  { item: "mount", title: "Mounts" },
  { item: "volume", title: "Volumes" },
  { item: "finding", title: "Findings" },
  { item: "check", title: "Checks" },
  { item: "platform", title: "Platform answers" },
  { item: "expectation", title: "Expectations" },
  { item: "plan", title: "Plan" },
];

/** Options that are each other's opposite without a "no" prefix. */
const OPPOSITES: [string, string][] = [
  ["hard", "soft"],
  ["rw", "ro"],
  ["bg", "fg"],
  ["sync", "async"],
];

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2009-05-01" → "May 2009" (no time zone involved). */
export function monthYear(date: string): string {
  const match = /^(\d{4})-(\d{2})/.exec(date);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${match[1]}` : date;
}

function optionKey(token: string): string | null {
  const at = token.indexOf("=");
  return at > 0 ? token.slice(0, at) : null;
}

/** True when `to` is the opposite of `from` (intr/nointr, hard/soft). */
export function isOpposite(from: string, to: string): boolean {
  if (from.includes("=") || to.includes("=")) return false;
  if (to === `no${from}` || from === `no${to}`) return true;
  return OPPOSITES.some(([a, b]) => (from === a && to === b) || (from === b && to === a));
}

/** True when `to` replaces `from`: its opposite, or the same key with another value. */
export function replaces(from: string, to: string): boolean {
  const key = optionKey(from);
  return isOpposite(from, to) || (key !== null && key === optionKey(to) && from !== to);
}

/** The option part of a mount value ("filer01:/vol/x rw,bg,hard" → ["rw", "bg", "hard"]). */
function options(value: string | null): string[] {
  const space = (value ?? "").indexOf(" ");
  const list = space < 0 ? "" : (value ?? "").slice(space + 1);
  return list.split(",").filter((token) => token !== "");
}

function exportOf(value: string | null): string {
  return (value ?? "").split(" ")[0] ?? "";
}

/**
 * The option edits from one option list to another: swaps (an option replaced by its opposite,
 * or a key=value option by the same key with another value) in the order of the old list, then
 * the options added, then the options removed.
 */
export function optionEdits(before: string[], after: string[]): OptionEdit[] {
  const removed = before.filter((token) => !after.includes(token));
  const added = after.filter((token) => !before.includes(token));
  const edits: OptionEdit[] = [];
  const paired = new Set<string>();
  const left: string[] = [];
  for (const token of removed) {
    const partner = added.find((candidate) => !paired.has(candidate) && replaces(token, candidate));
    if (partner === undefined) {
      left.push(token);
    } else {
      paired.add(partner);
      edits.push({ kind: "swapped", from: token, to: partner });
    }
  }
  for (const token of added) if (!paired.has(token)) edits.push({ kind: "added", token });
  for (const token of left) edits.push({ kind: "removed", token });
  return edits;
}

/** A mount change's edits, from its two lines or else from the token lists the server sent. */
export function mountEdits(change: Change): OptionEdit[] {
  const fromLines = optionEdits(options(change.before), options(change.after));
  if (fromLines.length > 0) return fromLines;
  return optionEdits(change.removed_tokens, change.added_tokens);
}

/** "intr → nointr", "+suid", "−actimeo=0". */
export function editText(edit: OptionEdit): string {
  if (edit.kind === "swapped") return `${edit.from} → ${edit.to}`;
  return edit.kind === "added" ? `+${edit.token}` : `−${edit.token}`;
}

interface Supersession {
  old: string;
  by: string[];
  on: string;
  why: string;
}

/** Who replaced whom in a change (its `shifts`, which the reason words). */
export function supersessions(change: Change): Supersession[] {
  return change.shifts
    .filter((shift) => shift.shift === "superseded" && shift.rule !== null)
    .map((shift) => ({ old: shift.rule ?? "", by: shift.by, on: shift.on ?? "", why: (shift.why ?? "").trim() }));
}

/** When a rule came into effect, from the explanations or else from the change's shifts. */
function effectiveFrom(rule: string, change: Change | null, context: StoryContext): string | null {
  const explained = context.rules?.[rule];
  if (explained) return explained.effective_from;
  const shifts = change?.shifts ?? [];
  const replacing = shifts.find((shift) => shift.shift === "superseded" && shift.by.includes(rule));
  const applies = shifts.find((shift) => shift.shift === "now_applies" && shift.rule === rule);
  return replacing?.on ?? applies?.on ?? null;
}

/** A source's short name: its number ("TR-3322") or its title without a trailing "(…)". */
function sourceName(id: string, title: string, context: StoryContext): string {
  return context.sourceNames?.[id] ?? title.replace(/\s*\([^)]*\)\s*$/, "");
}

/**
 * "since TR-3322's May 2009 revision" (the rule it replaces cites an older copy of the same
 * source; looking back in time it is the other way round, and no revision), "since NFS for Oracle (January 2011)", or "since January 2011" without explanations.
 */
export function since(rule: string, replaced: string[], change: Change | null, context: StoryContext = {}): string | null {
  if (context.cause === "platform") return null;
  const when = effectiveFrom(rule, change, context);
  const source = context.rules?.[rule]?.sources[0];
  if (!when) return null;
  if (!source) return `since ${monthYear(when)}`;
  const name = sourceName(source.id, source.title, context);
  // A revision: the advice it replaces cites an older copy of the same document.
  const newer = source.published ?? when;
  const revised = replaced.some((old) => context.rules?.[old]?.sources.some((s) => s.id === source.id && s.published !== null && s.published < newer));
  return revised ? `since ${name}'s ${monthYear(when)} revision` : `since ${name} (${monthYear(when)})`;
}

/** The rule behind a reversal: the one that superseded another (preferring one named after the new value), else a new one. */
function deciding(change: Change, hint: string): { rule: string | null; replaced: string[]; why: string | null } {
  const found = supersessions(change);
  const named = found.find((s) => s.by.some((id) => id.includes(hint.toUpperCase())));
  const chosen = named ?? found[0];
  if (chosen) {
    const rule = chosen.by.find((id) => id.includes(hint.toUpperCase())) ?? chosen.by[0] ?? null;
    return { rule, replaced: [chosen.old], why: chosen.why || null };
  }
  const fresh = change.rules_after.filter((id) => !change.rules_before.includes(id));
  return { rule: fresh[0] ?? null, replaced: change.rules_before.filter((id) => !change.rules_after.includes(id)), why: null };
}

/** A setting change's key in words: target and name, and where ("filer, volume prod_data"). */
export function settingParts(change: Change): { target: string; name: string; where: string } {
  const parts = change.setting;
  if (!parts) return { target: "", name: change.key, where: "" };
  const volumes = parts.volumes.length > 0 ? `${parts.volumes.length > 1 ? "volumes" : "volume"} ${parts.volumes.join(", ")}` : null;
  const where = [parts.target, volumes, parts.scope].filter((part): part is string => Boolean(part));
  return { target: parts.target, name: parts.name, where: where.join(", ") };
}

/** The name a mount goes by in a sentence: what it serves ("data", "redo+control"). */
function mountName(change: Change): string {
  return change.mount?.serves.join("+") ?? change.key;
}

function settingHeadline(change: Change, context: StoryContext): Headline {
  const parts = settingParts(change);
  const decided = deciding(change, parts.name);
  return {
    kind: "setting",
    subject: parts.name,
    before: change.before ?? "",
    after: change.after ?? "",
    where: parts.where,
    since: decided.rule ? since(decided.rule, decided.replaced, change, context) : null,
    on: decided.rule ? effectiveFrom(decided.rule, change, context) : null,
    why: decided.why,
    changes: [change],
    rulesBefore: change.rules_before.filter((id) => !change.rules_after.includes(id)),
    rulesAfter: change.rules_after.filter((id) => !change.rules_before.includes(id)),
  };
}

/** A swap is advice reversed when it swaps opposites, or when a rule on the line was superseded. */
function isReversal(edit: OptionEdit, change: Change): boolean {
  return edit.kind === "swapped" && (isOpposite(edit.from, edit.to) || supersessions(change).length > 0);
}

/** Every piece of the story, headlines first. */
export function tellStory(changes: Change[], context: StoryContext = {}): Story {
  const headlines: Headline[] = [];
  const mounts: MountLine[] = [];
  const rest: Change[] = [];
  const swaps = new Map<string, Headline>();
  for (const change of changes) {
    if (change.item === "setting" && change.kind === "changed" && change.before !== null && change.after !== null) {
      headlines.push(settingHeadline(change, context));
    } else if (change.item === "mount" && change.kind === "changed") {
      const edits = mountEdits(change);
      mounts.push({ change, exportBefore: exportOf(change.before), exportAfter: exportOf(change.after), edits });
      for (const edit of edits) {
        if (edit.kind !== "swapped" || !isReversal(edit, change)) continue;
        const id = `${edit.from}→${edit.to}`;
        const known = swaps.get(id);
        if (known) {
          known.changes.push(change);
          known.where = `mounts ${known.changes.map(mountName).join(", ")}`;
          continue;
        }
        const decided = deciding(change, optionKey(edit.to) ?? edit.to);
        const headline: Headline = {
          kind: "option",
          subject: optionKey(edit.from) ?? edit.from,
          before: edit.from,
          after: edit.to,
          where: `mount ${mountName(change)}`,
          since: decided.rule ? since(decided.rule, decided.replaced, change, context) : null,
          on: decided.rule ? effectiveFrom(decided.rule, change, context) : null,
          why: decided.why,
          changes: [change],
          rulesBefore: decided.replaced,
          rulesAfter: decided.rule ? [decided.rule] : [],
        };
        swaps.set(id, headline);
        headlines.push(headline);
      }
    } else {
      rest.push(change);
    }
  }
  const groups = GROUPS.map(({ item, title }) => ({ item, title, changes: rest.filter((change) => change.item === item) })).filter(
    (group) => group.changes.length > 0,
  );
  // Oldest reversal first: the story reads in the order it happened.
  const ordered = headlines.map((headline, index) => ({ headline, index }));
  ordered.sort((a, b) => (a.headline.on ?? "9999").localeCompare(b.headline.on ?? "9999") || a.index - b.index);
  return { headlines: ordered.map(({ headline }) => headline), mounts, groups };
}

/** "minra on → off, since TR-3322's May 2009 revision"; an option swap shows both tokens. */
export function headlineText(headline: Headline): string {
  const change = `${headline.before} → ${headline.after}`;
  const subject = headline.kind === "setting" ? `${headline.subject} ${change}` : change;
  return headline.since ? `${subject}, ${headline.since}` : subject;
}

/**
 * A change's reason without rule ids: "replaces earlier advice (May 2009)", "new advice since
 * TR-3496 (September 2006)", "earlier advice no longer applies"; other reasons as they are.
 */
export function plainReason(change: Change, context: StoryContext = {}): string {
  const ruled = change.shifts.filter((shift) => shift.shift !== "kb_release");
  if (ruled.length === 0) return change.reason;
  if (context.cause === "platform") return platformReason(ruled);
  const parts: string[] = [];
  const replaced = supersessions(change);
  if (replaced.length > 0) parts.push(`replaces earlier advice (${replaced.map((s) => monthYear(s.on)).join(", ")})`);
  const fresh = change.rules_after.filter((id) => !change.rules_before.includes(id) && !replaced.some((s) => s.by.includes(id)));
  const first = fresh[0];
  if (first) parts.push(`new advice ${since(first, [], change, context) ?? ""}`.trim());
  if (ruled.some((shift) => shift.shift === "no_longer_applies" || shift.shift === "no_longer_decides")) parts.push("earlier advice no longer applies");
  return parts.join("; ") || change.reason;
}

/** Rules that came or went between two platforms on one date, said as causes. */
function platformReason(shifts: Change["shifts"]): string {
  const parts: string[] = [];
  if (shifts.some((shift) => shift.shift === "now_applies")) parts.push("advice that applies to the changed answers");
  if (shifts.some((shift) => shift.shift !== "now_applies")) parts.push("advice that no longer applies once the answers changed");
  return parts.join("; ");
}

/** The headline sentence of a one-line item: "added setting filer nvfail: on". */
export function itemText(change: Change): string {
  const value = change.kind === "changed" ? `${change.before ?? "(none)"} → ${change.after ?? "(none)"}` : change.kind === "added" ? change.after : change.before;
  const key = change.item === "finding" ? (change.finding?.message ?? change.key) : change.key;
  return `${change.kind} ${change.item} ${key}${value === null || value === "" ? "" : `: ${value}`}`;
}

/** The whole story as plain lines (for tests, logs and reports). */
export function storyLines(story: Story, context: StoryContext = {}): string[] {
  const lines: string[] = [];
  for (const headline of story.headlines) lines.push(`HEADLINE ${headlineText(headline)} [${headline.where}]`);
  for (const mount of story.mounts) lines.push(`OPTIONS ${mount.change.key}: ${mount.edits.map(editText).join(" ")}`);
  for (const group of story.groups) {
    for (const change of group.changes) lines.push(`${group.title.toUpperCase()} ${itemText(change)} — ${plainReason(change, context)}`);
  }
  return lines;
}

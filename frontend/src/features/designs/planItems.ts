// The plan items a reviewer can comment on one by one (mounts, options on a mount, settings and
// findings), how the API names each (`ReviewItem`: the server's plan-diff key), the words that
// name it for people, and the id of its element on the design page.
import type { PlanView, Schemas } from "../../api/client";
import { planKeys } from "../../lib/planKeys";

export type ItemRef = Schemas["ReviewItem"];
type Review = Schemas["ReviewOut"];
type Mount = Schemas["Mount"];
type Setting = Schemas["Setting"];
type Finding = Schemas["Finding"];

export interface PlanItem {
  ref: ItemRef;
  /** The rule that decided the item (sent as `item_rule`, so older readers still see a rule). */
  rule: string | null;
  /** The item in words, e.g. "mount /u02/oradata/PROD, option 'actimeo=0'". */
  words: string;
  /** The id of the item's element on the design page. */
  elementId: string;
}

const TARGET_WORDS: Record<Setting["target"], string> = {
  host: "host",
  network: "network",
  switch: "switch",
  filer: "filer",
  oracle: "Oracle",
};

const SEVERITY_WORDS: Record<Finding["severity"], string> = { error: "error", warning: "warning", info: "note" };

const QUOTED_LENGTH = 60;

/** What tells two items apart: the same for an item and every review about it. */
export function identity(ref: ItemRef): string {
  return [ref.kind, ref.key, ref.option ?? ""].join("\n");
}

/** A short, stable element id for an item (FNV-1a of its identity, base 36). */
export function elementIdOf(ref: ItemRef): string {
  let hash = 0x811c9dc5;
  for (const char of identity(ref)) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `plan-item-${hash.toString(36)}`;
}

/** A message quoted, cut at a word to about QUOTED_LENGTH characters. */
function quoted(text: string): string {
  if (text.length <= QUOTED_LENGTH) return `“${text}”`;
  const cut = text.slice(0, QUOTED_LENGTH);
  const space = cut.lastIndexOf(" ");
  return `“${(space > QUOTED_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,.:;]+$/, "")}…”`;
}

function item(ref: ItemRef, rule: string | null | undefined, words: string): PlanItem {
  return { ref, rule: rule ?? null, words, elementId: elementIdOf(ref) };
}

/** A mount as a review item; `key` is the server's (planKeys). */
export function mountItem(mount: Mount, key: string): PlanItem {
  return item({ kind: "mount", key }, mount.rules[0], `mount ${mount.mount_point}`);
}

export function optionItem(mount: Mount, key: string, option: string): PlanItem {
  const ref: ItemRef = { kind: "option", key, option };
  return item(ref, mount.option_rules[option]?.[0], `mount ${mount.mount_point}, option '${option}'`);
}

export function settingItem(setting: Setting, key: string): PlanItem {
  const where = setting.applies_to.length ? ` on ${setting.applies_to.join(", ")}` : "";
  const scope = setting.scope ? ` in ${setting.scope}` : "";
  const words = `${TARGET_WORDS[setting.target]} setting ${setting.key}${where}${scope}`;
  return item({ kind: "setting", key }, setting.rules[0], words);
}

export function findingItem(finding: Finding, key: string): PlanItem {
  const words = `${SEVERITY_WORDS[finding.severity]} ${quoted(finding.message)}`;
  return item({ kind: "finding", key }, finding.rule, words);
}

/** The findings the plan's Findings card lists: the changes of advice lead the plan (At a
 * glance) and are not repeated there. */
export function shownFindings(plan: PlanView): Finding[] {
  const promoted = new Set(plan.summary?.reversals ?? []);
  return plan.findings.filter((f) => !promoted.has(f.message));
}

/** Every item the design page shows, by identity. */
export function planItems(plan: PlanView): Map<string, PlanItem> {
  const keys = planKeys(plan);
  const items = [
    ...plan.mounts.flatMap((mount) => [
      mountItem(mount, keys.mount(mount)),
      ...mount.options.map((option) => optionItem(mount, keys.mount(mount), option)),
    ]),
    ...plan.settings.map((setting) => settingItem(setting, keys.setting(setting))),
    ...shownFindings(plan).map((finding) => findingItem(finding, keys.finding(finding))),
  ];
  return new Map(items.map((i) => [identity(i.ref), i]));
}

/** Words for an item the page does not show (an imported review about a plan that differs):
 * read from the API's name for it. */
export function wordsOfRef(ref: ItemRef): string {
  const mountPoint = ref.key.slice(ref.key.indexOf(" ") + 1);
  if (ref.kind === "mount") return `mount ${mountPoint}`;
  if (ref.kind === "option") return `mount ${mountPoint}, option '${ref.option ?? ""}'`;
  if (ref.kind === "setting") return `setting ${ref.key}`;
  return `finding ${quoted(ref.key.slice(ref.key.indexOf(": ") + 2))}`;
}

/** The reviews about one item each, by the item's identity, oldest first. */
export function reviewsByItem(reviews: readonly Review[]): Map<string, Review[]> {
  const grouped = new Map<string, Review[]>();
  for (const review of reviews) {
    if (!review.item) continue;
    const key = identity(review.item);
    grouped.set(key, [...(grouped.get(key) ?? []), review]);
  }
  return grouped;
}

export function commentCount(count: number): string {
  return count === 1 ? "1 comment" : `${count} comments`;
}

/** A review's decision as what the reviewer did. */
export function decisionWords(decision: Review["decision"]): string {
  return decision === "request_changes" ? "asked for a change" : decision === "approve" ? "approved" : "commented";
}

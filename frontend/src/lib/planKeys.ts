// The server's key of each mount, setting and finding (PlanView.item_keys, in the order of those
// lists): the names a plan diff's changes and a review's item use. Nothing here rebuilds them.
import type { PlanView, Schemas } from "../api/client";

export interface PlanKeys {
  mount(mount: Schemas["Mount"]): string;
  setting(setting: Schemas["Setting"]): string;
  finding(finding: Schemas["Finding"]): string;
}

function byItem<T extends object>(items: readonly T[], keys: readonly string[]): (item: T) => string {
  const table = new Map(items.map((item, index) => [item, keys[index] ?? ""]));
  return (item) => table.get(item) ?? "";
}

const built = new WeakMap<PlanView, PlanKeys>();

/** The keys of a plan's items, looked up by the item objects of that plan. */
export function planKeys(plan: PlanView): PlanKeys {
  const known = built.get(plan);
  if (known) return known;
  const keys: PlanKeys = {
    mount: byItem(plan.mounts, plan.item_keys?.mounts ?? []),
    setting: byItem(plan.settings, plan.item_keys?.settings ?? []),
    finding: byItem(plan.findings, plan.item_keys?.findings ?? []),
  };
  built.set(plan, keys);
  return keys;
}

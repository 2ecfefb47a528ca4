// The keys the server's plan diff uses for each item (backend engine/diff.py), so the plan view
// can highlight exactly the items a change list names.
import type { Schemas } from "../api/client";

export function mountKey(mount: Schemas["Mount"]): string {
  return `${mount.serves.join("+")} ${mount.mount_point}`;
}

export function settingKey(setting: Schemas["Setting"]): string {
  const where = setting.applies_to && setting.applies_to.length ? ` [${setting.applies_to.join(", ")}]` : "";
  const scope = setting.scope ? ` (${setting.scope})` : "";
  return `${setting.target} ${setting.key}${where}${scope}`;
}

export function findingKey(finding: Schemas["Finding"]): string {
  return `${finding.rule}: ${finding.message}`;
}

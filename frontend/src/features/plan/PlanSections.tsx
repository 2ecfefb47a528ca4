import type { PlanView, Schemas } from "../../api/client";
import { CopyButton } from "../../components/CopyButton";
import { planKeys } from "../../lib/planKeys";
import { ITEM_FOCUS, ItemComments, ItemTools, useCommentCount, useItemAnchor } from "../designs/itemComments";
import { findingItem, mountItem, settingItem, shownFindings } from "../designs/planItems";
import { OptionChips } from "./OptionChips";
import { groupByTeam, oneLineReason } from "./teams";
import { Why } from "./Why";

const REQUIRES: Record<string, string> = {
  none: "",
  online: "",
  remount: "remount",
  reboot: "reboot",
  instance_restart: "instance restart",
};

export function MountTable({ plan, changed }: { plan: PlanView; changed: Set<string> }) {
  const anchor = useItemAnchor();
  return (
    <div className="space-y-3">
      <p className="text-xs text-slate-600">
        Lines for <code className="break-all font-mono">{plan.mount_table.path}</code>. Choose an option to see why it is there.
      </p>
      {plan.mounts.map((mount, index) => {
        const entry = plan.mount_table.entries[index];
        const text = entry?.text ?? "";
        const item = mountItem(mount, planKeys(plan).mount(mount));
        return (
          <div key={`${mount.mount_point}-${mount.role}`} {...anchor(item)} className={`min-w-0 rounded border border-slate-200 p-2 ${ITEM_FOCUS} ${changed.has(item.ref.key) ? "changed-item" : ""}`} data-testid={`mount-${mount.role}`}>
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="break-words text-sm font-medium">
                  {mount.mount_point} <span className="font-normal text-slate-600">({mount.serves.join(" + ")})</span> <ItemTools item={item} />
                </p>
                <p className="break-all font-mono text-xs text-slate-600">{mount.export}</p>
                {mount.path != null && <p className="text-xs text-slate-600">through storage path {mount.path}</p>}
              </div>
              <CopyButton text={text} label={`Copy the mount line for ${mount.mount_point}`} />
            </div>
            <OptionChips plan={plan} mount={mount} />
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer select-none text-slate-700">
                Mount table line<span className="sr-only"> for {mount.mount_point}</span>
              </summary>
              <pre tabIndex={0} aria-label={`Mount table line for ${mount.mount_point}`} className="mt-1 whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-50">{text}</pre>
            </details>
            <Why plan={plan} rules={mount.rules} label={`for ${mount.mount_point}`} />
            <ItemComments item={item} />
          </div>
        );
      })}
    </div>
  );
}

/** The one-line reason for a setting: the first sentence of its first rule's rationale. */
function reasonFor(plan: PlanView, rules: string[]): string | undefined {
  const rule = rules.map((id) => plan.rules[id]).find((r) => r !== undefined);
  return rule ? oneLineReason(rule.rationale) : undefined;
}

export function SettingsList({ plan, changed }: { plan: PlanView; changed: Set<string> }) {
  const anchor = useItemAnchor();
  return (
    <div className="space-y-4">
      {groupByTeam(plan.settings).map(({ team, items }) => (
        <div key={team.id} data-team={team.id}>
          <h3 className="text-sm font-semibold">
            {team.label} <span className="font-normal text-slate-600">· {team.where} · {items.length}</span>
          </h3>
          <ul className="mt-1 divide-y divide-slate-100 rounded border border-slate-200">
            {items.map((s) => {
              const item = settingItem(s, planKeys(plan).setting(s));
              return (
                <li key={item.ref.key} {...anchor(item)} className={`min-w-0 p-2 text-sm ${ITEM_FOCUS} ${changed.has(item.ref.key) ? "changed-item" : ""}`} data-testid={`setting-${s.key}`}>
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <code className="break-all font-mono text-xs">{s.key}</code>
                    <span>=</span>
                    <code className="break-all font-mono text-xs font-semibold">{s.action === "unset" ? "(unset)" : s.value}</code>
                    {s.at_least && <span className="text-xs text-slate-600" title="A larger value the host has is kept.">or more</span>}
                    {s.applies_to && s.applies_to.length > 0 && <span className="text-xs text-slate-600">on {s.applies_to.join(", ")}</span>}
                    {s.scope && <span className="break-all text-xs text-slate-600">in {s.scope}</span>}
                    {REQUIRES[s.requires] && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900">{REQUIRES[s.requires]}</span>}
                    <ItemTools item={item} />
                  </div>
                  <Why plan={plan} rules={s.rules} label={`for ${s.key}`} lead={reasonFor(plan, s.rules)} />
                  <ItemComments item={item} />
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}

const SEVERITY_STYLE: Record<string, string> = {
  error: "border-red-300 bg-red-50",
  warning: "border-amber-300 bg-amber-50",
  info: "border-slate-200 bg-white",
};

export function Findings({ plan, changed }: { plan: PlanView; changed: Set<string> }) {
  const groups: Schemas["Finding"]["severity"][] = ["error", "warning", "info"];
  const anchor = useItemAnchor();
  const comments = useCommentCount();
  // Changes of advice lead the plan (At a glance); the notes do not repeat them.
  const shown = shownFindings(plan);
  const hidden = plan.findings.length - shown.length;
  return (
    <div className="space-y-3">
      {groups.map((severity) => {
        const items = shown.filter((f) => f.severity === severity);
        if (!items.length) return null;
        const heading = `${severity === "error" ? "Errors" : severity === "warning" ? "Warnings" : "Notes"} (${items.length})`;
        const list = (
          <ul className="mt-1 space-y-2">
            {items.map((f) => {
              const item = findingItem(f, planKeys(plan).finding(f));
              return (
                <li key={item.ref.key} {...anchor(item)} className={`rounded border p-2 text-sm ${SEVERITY_STYLE[severity]} ${ITEM_FOCUS} ${changed.has(item.ref.key) ? "changed-item" : ""}`}>
                  <p>
                    {f.message} <ItemTools item={item} />
                  </p>
                  <Why plan={plan} rules={[f.rule, ...(f.related_rules ?? [])]} label={`for this ${severity}`} />
                  <ItemComments item={item} />
                </li>
              );
            })}
          </ul>
        );
        // Notes are many and rarely urgent: folded, unless one of them just changed or has comments.
        if (severity === "info") {
          return (
            <details key={severity} open={items.some((f) => changed.has(planKeys(plan).finding(f)) || comments(findingItem(f, planKeys(plan).finding(f))) > 0)}>
              <summary className="cursor-pointer text-sm font-semibold">{heading}</summary>
              {hidden > 0 && <p className="mt-1 text-xs text-slate-600">The {hidden === 1 ? "change" : `${hidden} changes`} of earlier advice {hidden === 1 ? "is" : "are"} under At a glance.</p>}
              {list}
            </details>
          );
        }
        return (
          <div key={severity}>
            <h3 className="text-sm font-semibold">{heading}</h3>
            {list}
          </div>
        );
      })}
    </div>
  );
}

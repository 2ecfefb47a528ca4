import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Link } from "react-router";
import type { PlanView, Schemas } from "../../api/client";
import { planKeys } from "../../lib/planKeys";
import { CommentButton, CommentCount, ITEM_FOCUS, ItemCommentList, OpenCommentForm, useItemAnchor } from "../designs/itemComments";
import { optionItem } from "../designs/planItems";
import { oneLineReason } from "./teams";

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/** A mount's options as chips that wrap; choosing one shows the rules that put it there.
 * The chips are one stop in the tab order (a roving tab stop): arrow keys, Home and End move
 * between them, so a keyboard user crosses a mount with one Tab. */
export function OptionChips({ plan, mount }: { plan: PlanView; mount: Schemas["Mount"] }) {
  const [open, setOpen] = useState<string | null>(null);
  const [current, setCurrent] = useState(0);
  const chips = useRef<(HTMLButtonElement | null)[]>([]);
  const panelId = useId();
  const anchor = useItemAnchor();
  const rules = open ? (mount.option_rules[open] ?? []) : [];
  const key = planKeys(plan).mount(mount);
  const items = mount.options.map((option) => optionItem(mount, key, option));
  const openItem = open ? optionItem(mount, key, open) : null;

  function onKey(event: KeyboardEvent<HTMLButtonElement>, index: number, expanded: boolean) {
    if (event.key === "Escape" && expanded) {
      setOpen(null);
      return;
    }
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const target = move(index, mount.options.length);
    setCurrent(target);
    chips.current[target]?.focus();
  }
  return (
    <div className="mt-2">
      <ul aria-label={`Mount options for ${mount.mount_point}`} className="flex flex-wrap gap-1.5">
        {mount.options.map((option, index) => {
          const expanded = open === option;
          const item = items[index];
          // On the design page a chip is a place the reviews list can move to (its first
          // chip, should an option be listed twice).
          const first = items.findIndex((other) => other.elementId === item?.elementId) === index;
          const elementId = item && first ? anchor(item).id : undefined;
          return (
            <li key={`${index}-${option}`} className="min-w-0 max-w-full">
              <button
                ref={(element) => {
                  chips.current[index] = element;
                }}
                type="button"
                id={elementId}
                tabIndex={index === current ? 0 : -1}
                aria-expanded={expanded}
                aria-controls={expanded ? panelId : undefined}
                onClick={() => {
                  setCurrent(index);
                  setOpen(expanded ? null : option);
                }}
                onFocus={() => setCurrent(index)}
                onKeyDown={(event) => onKey(event, index, expanded)}
                className={`max-w-full rounded-full border px-2 py-0.5 text-left font-mono text-xs break-all ${elementId ? ITEM_FOCUS : ""} ${
                  expanded ? "border-blue-800 bg-blue-800 text-white" : "border-slate-300 bg-slate-50 text-slate-900 hover:border-blue-800 hover:bg-blue-50"
                }`}
              >
                {option}
                {item && <CommentCount item={item} compact />}
                <span className="sr-only">: why?</span>
              </button>
            </li>
          );
        })}
      </ul>
      {open !== null && (
        <div id={panelId} role="region" aria-label={`Why ${open} on ${mount.mount_point}`} className="mt-2 rounded border border-slate-200 bg-slate-50 p-2 text-sm">
          <div className="flex items-start justify-between gap-2">
            <p className="min-w-0 font-medium">
              Why <code className="font-mono text-xs break-all">{open}</code>
            </p>
            <span className="flex shrink-0 items-center gap-2">
              {openItem && <CommentButton item={openItem} />}
              <button type="button" onClick={() => setOpen(null)} className="text-xs text-blue-800 underline">
                Close<span className="sr-only"> the reasons for {open}</span>
              </button>
            </span>
          </div>
          {rules.length === 0 ? (
            <p className="mt-1 text-slate-700">No rule names this option; it is part of the mount syntax for this OS.</p>
          ) : (
            <ul className="mt-1 space-y-1.5">
              {rules.map((id) => {
                const rule = plan.rules[id];
                return (
                  <li key={id} className="min-w-0">
                    <p className="break-words">
                      <Link to={`/rules/${id}`} className="font-medium text-blue-800 underline">
                        {id}
                      </Link>
                      {rule ? <> — {rule.title}</> : null}
                    </p>
                    {rule && <p className="text-xs text-slate-700">{oneLineReason(rule.rationale)}</p>}
                  </li>
                );
              })}
            </ul>
          )}
          {openItem && <OpenCommentForm item={openItem} />}
        </div>
      )}
      {[...new Map(items.map((item) => [item.elementId, item])).values()].map((item) => (
        <ItemCommentList key={item.elementId} item={item} label={item.ref.option ?? undefined} />
      ))}
    </div>
  );
}

import { Link } from "react-router";
import type { PlanView } from "../../api/client";

/** "Why?": the rules behind an item with their rationale, sources, dates and history. With a
 * `lead` (a one-line reason), the folded line shows that reason after "Why?". */
export function Why({ plan, rules, label, lead }: { plan: PlanView; rules: string[]; label: string; lead?: string }) {
  const replaced = plan.superseded.filter((s) => s.by.some((rule) => rules.includes(rule)));
  return (
    <details className="group text-sm">
      {lead ? (
        <summary className="cursor-pointer text-xs text-slate-700">
          <span className="select-none whitespace-nowrap font-medium text-blue-800 underline">
            Why?<span className="sr-only"> {label}</span>
          </span>{" "}
          <span className="break-words">{lead}</span>
        </summary>
      ) : (
        <summary className="cursor-pointer select-none text-xs font-medium text-blue-800 underline">
          Why?<span className="sr-only"> {label}</span>
        </summary>
      )}
      <div className="mt-2 space-y-3 rounded border border-slate-200 bg-slate-50 p-3">
        {rules.map((id) => {
          const rule = plan.rules[id];
          if (!rule) return null;
          return (
            <div key={id}>
              <p className="font-medium">
                <Link to={`/rules/${id}`} className="text-blue-800 underline">
                  {id}
                </Link>{" "}
                — {rule.title}
              </p>
              <p className="mt-1 text-slate-800">{rule.rationale}</p>
              <ul className="mt-1 list-disc pl-5 text-xs text-slate-700">
                {rule.sources.map((source) => (
                  <li key={`${source.id}-${source.locator}`}>
                    {source.title} — {source.locator}
                    {source.published ? ` (${source.published})` : ""}
                  </li>
                ))}
              </ul>
              <p className="mt-1 text-xs text-slate-600">
                In effect from {rule.effective_from}
                {rule.date_confidence === "earliest_evidence" ? " (earliest dated evidence: the advice may be older)" : ""}
                {rule.date_confidence === "inferred" ? " (date inferred)" : ""}
                {rule.confidence !== "verified" ? ` · confidence: ${rule.confidence}` : ""}
              </p>
              {rule.date_note && <p className="text-xs text-slate-600">{rule.date_note}</p>}
            </div>
          );
        })}
        {replaced.map((entry) => (
          <p key={entry.rule} className="rounded bg-amber-50 p-2 text-xs text-amber-900">
            Replaces earlier advice {entry.rule} (“{entry.title}”, from {entry.effective_from}) since{" "}
            {entry.replaced_on}: {entry.reason}
          </p>
        ))}
      </div>
    </details>
  );
}

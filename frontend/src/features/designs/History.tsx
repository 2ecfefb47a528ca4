// The design's history on one line per event, newest first: revisions saved, approvals, audits
// kept and as-built checks recorded (those of the pages loaded so far).
import type { Schemas } from "../../api/client";
import { useAsBuiltChecks } from "./AsBuilt";
import { useDesignAudits } from "./BeforeAudits";
import { loadedItems, olderCount } from "./keptPages";

interface HistoryEvent {
  at: string;
  kind: "revision" | "approval" | "audit" | "as built";
  text: string;
}

export function historyEvents(
  revisions: Schemas["RevisionSummary"][],
  audits: Schemas["DesignAuditSummary"][],
  checks: Schemas["AsBuiltSummary"][],
): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  for (const r of revisions) {
    events.push({ at: r.created_at, kind: "revision", text: `Revision ${r.number} saved (knowledge base ${r.kb_version})` });
    if (r.approval) {
      events.push({ at: r.approval.approved_at, kind: "approval", text: `Revision ${r.number} approved by ${r.approval.reviewer}` });
    }
  }
  for (const a of audits) {
    events.push({ at: a.created_at, kind: "audit", text: `Audit "${a.label}" against revision ${a.revision}: score ${a.score ?? "n/a"}%` });
  }
  for (const c of checks) {
    const differs = c.counts.differs ?? 0;
    events.push({
      at: c.created_at,
      kind: "as built",
      text: `${c.host ?? "A host"} checked against revision ${c.revision}: ${c.counts.verified ?? 0} verified, ${differs} differ`,
    });
  }
  // Times are to the second, so events of one second tie: the later-listed one happened later
  // (an approval or an audit needs its revision saved first).
  return events
    .map((event, order) => ({ event, order }))
    .sort((a, b) => Date.parse(b.event.at) - Date.parse(a.event.at) || b.order - a.order)
    .map(({ event }) => event);
}

const KIND_STYLE = {
  revision: "bg-slate-100 text-slate-800",
  approval: "bg-green-100 text-green-900",
  audit: "bg-amber-100 text-amber-900",
  "as built": "bg-blue-100 text-blue-900",
} as const;

export function History({ designId, revisions }: { designId: string; revisions: Schemas["RevisionSummary"][] }) {
  const audits = useDesignAudits(designId);
  const checks = useAsBuiltChecks(designId);
  const events = historyEvents(revisions, loadedItems(audits.data?.pages), loadedItems(checks.data?.pages));
  const older = olderCount(audits.data?.pages) + olderCount(checks.data?.pages);
  const loading = audits.isFetchingNextPage || checks.isFetchingNextPage;
  return (
    <>
      <ol className="space-y-1 text-sm" aria-label="History">
        {events.map((e, i) => (
          <li key={`${e.at}-${i}`} className="flex flex-wrap items-baseline gap-2" data-testid="history-event">
            <span className="text-xs text-slate-600">{e.at.slice(0, 16).replace("T", " ")}</span>
            <span className={`rounded-full px-2 py-0.5 text-xs ${KIND_STYLE[e.kind]}`}>{e.kind}</span>
            <span className="min-w-0 wrap-anywhere">{e.text}</span>
          </li>
        ))}
      </ol>
      {older > 0 && (
        <button
          type="button"
          disabled={loading}
          onClick={() => {
            if (audits.hasNextPage) void audits.fetchNextPage();
            if (checks.hasNextPage) void checks.fetchNextPage();
          }}
          className="mt-2 rounded border border-slate-400 bg-white px-3 py-1.5 text-sm disabled:opacity-50"
        >
          {loading ? "Loading…" : `Show older audits and checks (${older} more)`}
        </button>
      )}
    </>
  );
}

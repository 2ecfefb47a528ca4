// Audits kept on the design: what ran before it was built (or at any later check), each with its
// score and counts, checked against the revision named. Its findings are read when opened.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api, type Schemas, unwrap } from "../../api/client";
import { ErrorMessage, Loading } from "../../components/States";
import { loadedItems, olderCount, useKeptPages } from "./keptPages";

/** The design's kept audits, a page of summaries at a time (shared with the design's history). */
export function useDesignAudits(designId: string) {
  return useKeptPages(["design", designId, "audits"], async (before) =>
    unwrap(
      await api.GET("/api/v1/designs/{design_id}/audits", {
        params: { path: { design_id: designId }, query: before === null ? {} : { before } },
      }),
    ),
  );
}

function findingCount(summary: Schemas["DesignAuditSummary"]): number {
  const c = summary.severity_counts;
  return c.error + c.warning + c.info;
}

function Findings({ designId, summary }: { designId: string; summary: Schemas["DesignAuditSummary"] }) {
  const audit = useQuery({
    queryKey: ["design", designId, "audit", summary.id],
    staleTime: Infinity, // a kept audit never changes
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/designs/{design_id}/audits/{audit_id}", {
          params: { path: { design_id: designId, audit_id: summary.id } },
        }),
      ),
  });
  if (audit.isPending) return <Loading what="the findings" />;
  if (audit.isError) return <ErrorMessage error={audit.error} title="Could not read the audit" />;
  const findings = audit.data.report.findings;
  const total = findingCount(summary);
  return (
    <>
      <ul className="mt-1 space-y-1">
        {findings.map((f, i) => (
          <li key={`${f.rule}-${f.line}-${i}`} className="wrap-anywhere">
            <span className="font-semibold uppercase">{f.severity}</span> {f.file}
            {f.line ? ` line ${f.line}` : ""}: {f.message}{" "}
            <Link to={`/rules/${f.rule}`} className="text-blue-800 underline">{f.rule}</Link>
          </li>
        ))}
      </ul>
      {findings.length < total && (
        <p className="mt-1 text-slate-700">
          The first {findings.length} of {total} findings, the most severe first.
        </p>
      )}
    </>
  );
}

function KeptAudit({ designId, kept }: { designId: string; kept: Schemas["DesignAuditSummary"] }) {
  const [open, setOpen] = useState(false);
  const ignored = Object.values(kept.ignored_count).reduce((sum, n) => sum + n, 0);
  return (
    <li className="rounded border border-slate-200 p-2" data-testid="design-audit">
      <p>
        <span className="font-medium">{kept.label}</span> against revision {kept.revision} ·{" "}
        {kept.created_at.slice(0, 16).replace("T", " ")} UTC
      </p>
      <p className="mt-1 flex flex-wrap gap-1">
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs">score {kept.score ?? "n/a"}%</span>
        <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs text-red-900">{kept.severity_counts.error} error(s)</span>
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{kept.severity_counts.warning} warning(s)</span>
        {ignored > 0 && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs">{ignored} line(s) not understood</span>}
      </p>
      <details className="mt-1" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer">Findings ({findingCount(kept)})</summary>
        {open && <Findings designId={designId} summary={kept} />}
      </details>
    </li>
  );
}

export function BeforeAudits({ designId, hash }: { designId: string; hash: string }) {
  const audits = useDesignAudits(designId);
  const kept = loadedItems(audits.data?.pages);
  const older = olderCount(audits.data?.pages);
  return (
    <div className="space-y-3 text-sm">
      {audits.isError && <ErrorMessage error={audits.error} title="Could not read the design's audits" />}
      {audits.isSuccess && kept.length === 0 && (
        <p className="text-slate-700">
          No audit is kept on this design yet.{" "}
          <Link to={`/audit?design=${encodeURIComponent(designId)}${hash}`} className="text-blue-800 underline">
            Audit what runs today
          </Link>{" "}
          and keep it as the design's "before".
        </p>
      )}
      <ul className="space-y-2">
        {kept.map((summary) => (
          <KeptAudit key={summary.id} designId={designId} kept={summary} />
        ))}
      </ul>
      {audits.hasNextPage && (
        <button
          type="button"
          onClick={() => void audits.fetchNextPage()}
          disabled={audits.isFetchingNextPage}
          className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm disabled:opacity-50"
        >
          {audits.isFetchingNextPage ? "Loading…" : `Show older audits (${older} more)`}
        </button>
      )}
    </div>
  );
}

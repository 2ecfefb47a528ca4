// Audits kept on the design: what ran before it was built (or at any later check), each with its
// score, counts and findings, checked against the revision named.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { ErrorMessage } from "../../components/States";
import { counts } from "../audit/model";

export function useDesignAudits(designId: string) {
  return useQuery({
    queryKey: ["design", designId, "audits"],
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}/audits", { params: { path: { design_id: designId } } })),
  });
}

export function BeforeAudits({ designId, hash }: { designId: string; hash: string }) {
  const audits = useDesignAudits(designId);
  return (
    <div className="space-y-3 text-sm">
      {audits.isError && <ErrorMessage error={audits.error} title="Could not read the design's audits" />}
      {audits.data && audits.data.length === 0 && (
        <p className="text-slate-700">
          No audit is kept on this design yet.{" "}
          <Link to={`/audit?design=${encodeURIComponent(designId)}${hash}`} className="text-blue-800 underline">
            Audit what runs today
          </Link>{" "}
          and keep it as the design's "before".
        </p>
      )}
      <ul className="space-y-2">
        {(audits.data ?? []).map((kept) => {
          const c = counts(kept.report);
          return (
            <li key={kept.id} className="rounded border border-slate-200 p-2" data-testid="design-audit">
              <p>
                <span className="font-medium">{kept.label}</span> against revision {kept.revision} ·{" "}
                {kept.created_at.slice(0, 16).replace("T", " ")} UTC
              </p>
              <p className="mt-1 flex flex-wrap gap-1">
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs">score {kept.report.score ?? "n/a"}%</span>
                <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs text-red-900">{c.error} error(s)</span>
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{c.warning} warning(s)</span>
              </p>
              <details className="mt-1">
                <summary className="cursor-pointer">Findings ({kept.report.findings.length})</summary>
                <ul className="mt-1 space-y-1">
                  {kept.report.findings.map((f, i) => (
                    <li key={`${f.rule}-${f.line}-${i}`} className="wrap-anywhere">
                      <span className="font-semibold uppercase">{f.severity}</span> {f.file}
                      {f.line ? ` line ${f.line}` : ""}: {f.message}{" "}
                      <Link to={`/rules/${f.rule}`} className="text-blue-800 underline">{f.rule}</Link>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

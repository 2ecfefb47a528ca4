// As built versus approved: upload what verify/verify_host.sh --report wrote on a host, see each
// planned item verified, different or not checked, and keep the record with the design.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorMessage } from "../../components/States";

const STATUS_STYLE = {
  verified: "bg-green-100 text-green-900",
  differs: "bg-red-100 text-red-900",
  not_checked: "bg-slate-100 text-slate-800",
} as const;

const STATUS_LABEL = { verified: "verified", differs: "differs", not_checked: "not checked" } as const;

/** The design's as-built checks, newest first (shared with the design's history). */
export function useAsBuiltChecks(designId: string) {
  return useQuery({
    queryKey: ["design", designId, "as-built"],
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}/as-built", { params: { path: { design_id: designId } } })),
  });
}

export function AsBuilt({ designId, revision, token }: { designId: string; revision: number; token: string | null }) {
  const queryClient = useQueryClient();
  const [report, setReport] = useState("");
  const checks = useAsBuiltChecks(designId);
  const record = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/v1/designs/{design_id}/as-built", {
          params: { path: { design_id: designId }, header: { "x-edit-token": token ?? "" } },
          body: { revision, report },
        }),
      ),
    onSuccess: async () => {
      setReport("");
      await queryClient.invalidateQueries({ queryKey: ["design", designId, "as-built"] });
    },
  });

  return (
    <div className="space-y-3 text-sm">
      {checks.isError && <ErrorMessage error={checks.error} title="Could not read the as-built checks" />}
      {checks.data && checks.data.length === 0 && <p className="text-slate-700">No host has reported yet.</p>}
      <ul className="space-y-2">
        {(checks.data ?? []).map((check) => (
          <li key={check.id} className="rounded border border-slate-200 p-2" data-testid="as-built-check">
            <p>
              <span className="font-medium">{check.host ?? "unnamed host"}</span> against revision {check.revision} ·{" "}
              {check.created_at.slice(0, 16).replace("T", " ")} UTC
            </p>
            <p className="mt-1 flex flex-wrap gap-1">
              {(["verified", "differs", "not_checked"] as const).map((status) => (
                <span key={status} className={`rounded-full px-2 py-0.5 text-xs ${STATUS_STYLE[status]}`}>
                  {check.counts[status] ?? 0} {STATUS_LABEL[status]}
                </span>
              ))}
            </p>
            <details className="mt-1">
              <summary className="cursor-pointer">Each item</summary>
              <ul className="mt-1 space-y-1">
                {check.items.map((item) => (
                  <li key={item.item} className="wrap-anywhere">
                    <span className={`mr-1 rounded px-1 text-xs ${STATUS_STYLE[item.status]}`}>{STATUS_LABEL[item.status]}</span>
                    <span className="font-mono text-xs">{item.item}</span>
                    {item.found && <span className="text-slate-700"> — found: {item.found}</span>}
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ul>
      {token ? (
        <form
          aria-label="Record an as-built check"
          className="space-y-2 border-t border-slate-200 pt-3"
          onSubmit={(event) => {
            event.preventDefault();
            record.mutate();
          }}
        >
          <label htmlFor="as-built-report" className="block font-medium text-slate-800">
            Report from <code>verify/verify_host.sh --report FILE</code> (revision {revision})
          </label>
          <textarea
            id="as-built-report"
            rows={6}
            value={report}
            spellCheck={false}
            onChange={(event) => setReport(event.target.value)}
            className="w-full rounded border border-slate-400 p-2 font-mono text-xs"
          />
          <input
            type="file"
            aria-label="Or choose the report file"
            className="text-sm"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void file.text().then(setReport);
            }}
          />
          <div>
            <button type="submit" disabled={report.trim() === "" || record.isPending} className="rounded bg-blue-800 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
              {record.isPending ? "Recording…" : "Record as built"}
            </button>
          </div>
          {record.error && <ErrorMessage error={record.error} title="Not recorded" />}
        </form>
      ) : (
        <p className="text-slate-700">Open the design's edit link to record what a host reports.</p>
      )}
    </div>
  );
}

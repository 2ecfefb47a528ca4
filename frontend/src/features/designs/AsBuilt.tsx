// As built versus approved: upload what verify/verify_host.sh --report wrote on a host, see each
// planned item verified, different or not checked, and keep the record with the design. The list
// shows each check's counts; its items are read when opened.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../../api/client";
import { ErrorMessage, Loading } from "../../components/States";
import { loadedItems, olderCount, useKeptPages } from "./keptPages";

const STATUS_STYLE = {
  verified: "bg-green-100 text-green-900",
  differs: "bg-red-100 text-red-900",
  not_checked: "bg-slate-100 text-slate-800",
} as const;

const STATUS_LABEL = { verified: "verified", differs: "differs", not_checked: "not checked" } as const;

/** The design's as-built checks, a page of summaries at a time (shared with the design's history). */
export function useAsBuiltChecks(designId: string) {
  return useKeptPages(["design", designId, "as-built"], async (before) =>
    unwrap(
      await api.GET("/api/v1/designs/{design_id}/as-built", {
        params: { path: { design_id: designId }, query: before === null ? {} : { before } },
      }),
    ),
  );
}

function CheckItems({ designId, checkId }: { designId: string; checkId: number }) {
  const check = useQuery({
    queryKey: ["design", designId, "as-built-check", checkId],
    staleTime: Infinity, // a recorded check never changes
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/designs/{design_id}/as-built/{check_id}", {
          params: { path: { design_id: designId, check_id: checkId } },
        }),
      ),
  });
  if (check.isPending) return <Loading what="the items" />;
  if (check.isError) return <ErrorMessage error={check.error} title="Could not read the check" />;
  return (
    <ul className="mt-1 space-y-1">
      {check.data.items.map((item) => (
        <li key={item.item} className="wrap-anywhere">
          <span className={`mr-1 rounded px-1 text-xs ${STATUS_STYLE[item.status]}`}>{STATUS_LABEL[item.status]}</span>
          <span className="font-mono text-xs">{item.item}</span>
          {item.found && <span className="text-slate-700"> — found: {item.found}</span>}
        </li>
      ))}
    </ul>
  );
}

function Check({ designId, check }: { designId: string; check: Schemas["AsBuiltSummary"] }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="rounded border border-slate-200 p-2" data-testid="as-built-check">
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
      <details className="mt-1" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer">Each item</summary>
        {open && <CheckItems designId={designId} checkId={check.id} />}
      </details>
    </li>
  );
}

export function AsBuilt({ designId, revision, token }: { designId: string; revision: number; token: string | null }) {
  const queryClient = useQueryClient();
  const [report, setReport] = useState("");
  const checks = useAsBuiltChecks(designId);
  const listed = loadedItems(checks.data?.pages);
  const older = olderCount(checks.data?.pages);
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
      {checks.isSuccess && listed.length === 0 && <p className="text-slate-700">No host has reported yet.</p>}
      <ul className="space-y-2">
        {listed.map((check) => (
          <Check key={check.id} designId={designId} check={check} />
        ))}
      </ul>
      {checks.hasNextPage && (
        <button
          type="button"
          onClick={() => void checks.fetchNextPage()}
          disabled={checks.isFetchingNextPage}
          className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm disabled:opacity-50"
        >
          {checks.isFetchingNextPage ? "Loading…" : `Show older checks (${older} more)`}
        </button>
      )}
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

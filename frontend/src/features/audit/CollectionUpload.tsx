// A collector's archive, read whole: the platform it shows (each answer with its evidence, to
// confirm), what the host would not give, then one click to audit with the confirmed answers.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorMessage } from "../../components/States";
import type { Draft } from "../../lib/draft";
import { againstDesign, type CollectionReport, type InferredAnswer } from "./model";

const BUTTON = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100";

export function CollectionUpload({
  onUse,
  wizardLink,
  design,
}: {
  /** Audit the collection's files with these answers applied to the platform. */
  onUse: (answers: InferredAnswer[], report: CollectionReport) => void;
  /** The wizard, prefilled with these answers: a design started from this host. */
  wizardLink: (answers: InferredAnswer[]) => string;
  /** A saved design's answers: the host as built is compared with them, never changes them. */
  design?: Draft;
}) {
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const read = useMutation({
    mutationFn: async (file: File) =>
      unwrap(
        await api.POST("/api/v1/collections", {
          body: (await file.arrayBuffer()) as unknown as string,
          bodySerializer: (body: unknown) => body as ArrayBuffer,
          headers: { "content-type": "application/x-tar" },
        }),
      ),
    onSuccess: () => setUnticked(new Set()),
  });
  const report = read.data;
  const chosen = (report?.answers ?? []).filter((a) => !unticked.has(a.field));
  const notRead = (report?.files ?? []).filter((f) => f.status !== "read");

  return (
    <section aria-label="Collection" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-lg font-semibold">Or upload a collection</h2>
      <p className="text-sm text-slate-700">
        Run the read-only collector on the host (
        {(["linux", "solaris", "aix", "hpux"] as const).map((os, i) => (
          <span key={os}>
            {i > 0 && ", "}
            <a href={`/api/v1/collector/${os}`} className="text-blue-800 underline">
              {os === "hpux" ? "HP-UX" : os === "aix" ? "AIX" : os[0]?.toUpperCase() + os.slice(1)}
            </a>
          </span>
        ))}
        ), then give its <code>nasplan-collect.tar</code> here. For the filer, the storage team runs the
        read-only commands for{" "}
        <a href="/api/v1/collector/filer/ontap_cluster" className="text-blue-800 underline">
          clustered ONTAP or FSx for ONTAP
        </a>{" "}
        or{" "}
        <a href="/api/v1/collector/filer/ontap7" className="text-blue-800 underline">
          Data ONTAP 7-mode
        </a>{" "}
        and pastes what each prints above.
      </p>
      <label className="block text-sm font-medium text-slate-800">
        Collection (nasplan-collect.tar){" "}
        <input
          type="file"
          accept=".tar,.tgz,.gz,application/x-tar"
          className="text-sm"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) read.mutate(file);
          }}
        />
      </label>
      {read.error && <ErrorMessage error={read.error} title="The collection could not be read" />}
      {report && (
        <div className="space-y-3" data-testid="collection-report">
          <p className="text-sm">
            From <span className="font-medium">{report.host ?? "the host"}</span>
            {report.collected_at ? `, ${report.collected_at}` : ""}
            {report.collected_by ? `, run as ${report.collected_by}` : ""}: {report.pastes.length} file(s) to check.
          </p>
          {design ? (
            <AgainstDesign design={design} answers={report.answers} />
          ) : (
            <fieldset className="space-y-1">
              <legend className="text-sm font-semibold">What the host shows (untick what is wrong)</legend>
              {report.answers.map((answer) => (
                <label key={answer.field} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={!unticked.has(answer.field)}
                    onChange={(event) =>
                      setUnticked((set) => {
                        const next = new Set(set);
                        if (event.target.checked) next.delete(answer.field);
                        else next.add(answer.field);
                        return next;
                      })
                    }
                  />
                  <span className="wrap-anywhere">
                    <span className="font-medium">{answer.label}</span>{" "}
                    <span className="text-slate-600">({answer.evidence})</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {notRead.length > 0 && (
            <details className="text-sm">
              <summary>{notRead.length} file(s) the host would not give</summary>
              <ul className="mt-1 list-disc pl-5">
                {notRead.map((f) => (
                  <li key={f.file} className="wrap-anywhere">
                    {f.what}: {f.status}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className={BUTTON}
              onClick={() => onUse(design ? [] : chosen, report)}
              disabled={report.pastes.length === 0}
            >
              {design ? "Check against the design" : "Use these answers and check"}
            </button>
            {!design && (
              <a href={wizardLink(chosen)} className="text-sm font-medium text-blue-800 underline">
                Start a design from this host
              </a>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

/** The host as collected beside the saved design: what agrees, and what the design says where
 * the host shows something else. */
function AgainstDesign({ design, answers }: { design: Draft; answers: InferredAnswer[] }) {
  const rows = againstDesign(design, answers);
  const differ = rows.filter((r) => !r.agrees).length;
  return (
    <div className="space-y-1" data-testid="collection-against-design">
      <p className="text-sm font-semibold">
        The host as built against the design: {differ === 0 ? "every answer agrees" : `${differ} answer(s) differ`}
      </p>
      <ul className="space-y-1 text-sm">
        {rows.map(({ answer, design: planned, agrees }) => (
          <li key={answer.field} className="wrap-anywhere">
            <span className={agrees ? "text-green-800" : "font-medium text-amber-800"}>{agrees ? "Agrees" : "Differs"}</span>
            {": "}
            <span className="font-medium">{answer.label}</span> <span className="text-slate-600">({answer.evidence})</span>
            {!agrees && <span>; the design says {planned || "nothing"}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { ErrorMessage, Loading } from "../../components/States";
import { conditionsInWords, givenConditions } from "../../lib/conditionsInWords";
import { useCatalog } from "../wizard/usePlan";

export default function RulePage() {
  const { ruleId = "" } = useParams();
  const catalog = useCatalog();
  const rule = useQuery({
    queryKey: ["rule", ruleId],
    queryFn: async () => unwrap(await api.GET("/api/v1/knowledge/rules/{rule_id}", { params: { path: { rule_id: ruleId } } })),
  });
  if (rule.isPending) return <Loading what="the rule" />;
  if (rule.isError) return <ErrorMessage error={rule.error} title={`Could not load rule ${ruleId}`} />;
  const r = rule.data;
  const given = givenConditions(r.when);
  const lines = catalog.data ? conditionsInWords(r.when, catalog.data) : [];
  return (
    <article className="max-w-3xl">
      <p className="text-sm"><Link to="/rules" className="text-blue-800 underline">All rules</Link></p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">{r.title}</h1>
      <p className="mt-1 text-sm text-slate-700">
        <code>{r.id}</code> · {r.category} · severity {r.severity} · confidence {r.confidence} · in effect from {r.effective_from}
        {r.date_confidence === "earliest_evidence" ? " (earliest dated evidence)" : r.date_confidence === "inferred" ? " (date inferred)" : ""}
        {r.retired_on ? ` until ${r.retired_on}` : ""}
      </p>
      {r.date_note && <p className="mt-1 text-xs text-slate-600">{r.date_note}</p>}
      <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="why">
        <h2 id="why" className="font-semibold">Why</h2>
        <p className="mt-1 text-sm">{r.rationale}</p>
        <h3 className="mt-3 text-sm font-semibold">Sources</h3>
        <ul className="mt-1 list-disc pl-5 text-sm">
          {r.sources.map((ref) => {
            const source = r.cited_sources.find((s) => s.id === ref.id);
            return (
              <li key={`${ref.id}-${ref.locator}`}>
                <Link
                  to={`/rules?source=${encodeURIComponent(ref.id)}`}
                  className="text-blue-800 underline"
                  title="Every rule that cites this source"
                >
                  {source?.number ? `${source.number}, ` : ""}“{source?.title ?? ref.id}”
                </Link>{" "}
                ({source?.publisher ?? ref.id}
                {ref.edition ? `, edition ${ref.edition}` : source?.published ? `, ${source.published}` : ""}) — {ref.locator}
              </li>
            );
          })}
        </ul>
      </section>
      <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="when">
        <h2 id="when" className="font-semibold">When it applies</h2>
        {Object.keys(given).length === 0 ? <p className="mt-1 text-sm">On every platform.</p> : (
          <>
            {catalog.isPending && <Loading what="the conditions" />}
            {catalog.isError && <ErrorMessage error={catalog.error} title="Could not load the catalog to put the conditions in words" />}
            {lines.length > 0 && (
              <>
                {lines.length > 1 && <p className="mt-1 text-sm text-slate-700">All of these hold:</p>}
                <ul className={`mt-1 text-sm ${lines.length > 1 ? "list-disc pl-5" : ""}`}>
                  {lines.map((line) => <li key={line} className="break-words">{line}</li>)}
                </ul>
              </>
            )}
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-slate-700">Show as data</summary>
              <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{JSON.stringify(given, null, 2)}</pre>
            </details>
          </>
        )}
      </section>
      <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="history">
        <h2 id="history" className="font-semibold">History</h2>
        <ol className="relative mt-3 border-l-2 border-blue-200 pl-5">
          {r.history.map((entry) => (
            <li key={entry.id} className="mb-4">
              <span aria-hidden="true" className={`absolute -left-[7px] mt-1 h-3 w-3 rounded-full ${entry.id === r.id ? "bg-blue-800" : "bg-blue-300"}`} />
              <p className="text-xs text-slate-600">{entry.effective_from}{entry.retired_on ? ` – ${entry.retired_on}` : ""}</p>
              <p className="text-sm">
                {entry.id === r.id ? <strong>{entry.title}</strong> : <Link to={`/rules/${entry.id}`} className="text-blue-800 underline">{entry.title}</Link>}
                {entry.replaced_by.length > 0 && <span className="text-slate-600"> — replaced by {entry.replaced_by.join(", ")}</span>}
              </p>
            </li>
          ))}
        </ol>
      </section>
      {r.conflicts.length > 0 && (
        <section className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4" aria-labelledby="conflicts">
          <h2 id="conflicts" className="font-semibold">Where sources disagree</h2>
          {r.conflicts.map((c) => (
            <div key={c.id} className="mt-2 text-sm">
              <p className="font-medium">{c.topic}</p>
              <p>Followed: {c.winner.position}</p>
              {c.losers.map((l) => <p key={l.position}>Set aside: {l.position}</p>)}
              <p className="text-slate-700">Why: {c.reason}</p>
            </div>
          ))}
        </section>
      )}
      {r.facts.length > 0 && (
        <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="facts">
          <h2 id="facts" className="font-semibold">Related facts</h2>
          <ul className="mt-1 list-disc pl-5 text-sm">{r.facts.map((f) => <li key={f.id}>{f.statement}</li>)}</ul>
        </section>
      )}
    </article>
  );
}

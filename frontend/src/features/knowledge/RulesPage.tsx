import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { conditionsInWords } from "../../lib/conditionsInWords";
import { useDebounced } from "../../lib/useDebounced";
import { useCatalog } from "../wizard/usePlan";

const CATEGORIES = ["protocol", "mount", "host", "network", "filer", "oracle", "layout", "compatibility", "operations"];

export default function RulesPage() {
  const [params, setParams] = useSearchParams();
  const catalog = useCatalog();
  const q = params.get("q") ?? "";
  const category = params.get("category") ?? "";
  const source = params.get("source") ?? "";
  const query = useDebounced({ q, category, source }, 200);
  const knowledge = useQuery({
    queryKey: ["knowledge", query],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/knowledge", {
          params: {
            query: {
              q: query.q || undefined,
              category: query.category || undefined,
              source: query.source || undefined,
            },
          },
        }),
      ),
  });
  const sources = useQuery({
    queryKey: ["knowledge", "all"],
    queryFn: async () => unwrap(await api.GET("/api/v1/knowledge")),
    staleTime: Infinity,
  });

  function update(key: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  }

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Knowledge base</h1>
      <p className="mt-1 text-sm text-slate-700">
        Every rule nasplan applies, with its conditions, rationale, sources and history.
        {sources.data && ` Release ${sources.data.kb_version} (${sources.data.released}).`}
      </p>
      <div className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor="rule-q" className="block text-sm font-medium">Search</label>
          <input id="rule-q" type="search" value={q} onChange={(e) => update("q", e.target.value)} placeholder="e.g. minra, jumbo, dNFS" className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm" />
        </div>
        <div>
          <label htmlFor="rule-category" className="block text-sm font-medium">Category</label>
          <select id="rule-category" value={category} onChange={(e) => update("category", e.target.value)} className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm">
            <option value="">All categories</option>
            {CATEGORIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="rule-source" className="block text-sm font-medium">Source</label>
          <select id="rule-source" value={source} onChange={(e) => update("source", e.target.value)} className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm">
            <option value="">All sources</option>
            {(sources.data?.sources ?? []).map((s) => <option key={s.id} value={s.id}>{s.number ?? s.id}: {s.title}</option>)}
          </select>
        </div>
      </div>
      <div className="mt-4">
        {knowledge.isPending && <Loading what="rules" />}
        {knowledge.isError && <ErrorMessage error={knowledge.error} title="Could not load the rules" />}
        {knowledge.data && knowledge.data.rules.length === 0 && <Empty>No rule matches these filters.</Empty>}
        {knowledge.data && knowledge.data.rules.length > 0 && (
          <>
            <p className="mb-2 text-sm text-slate-700" aria-live="polite">{knowledge.data.rules.length} rules</p>
            <ul className="divide-y divide-slate-200 rounded border border-slate-200 bg-white">
              {knowledge.data.rules.map((rule) => (
                <li key={rule.id} className="p-3">
                  <Link to={`/rules/${rule.id}`} className="font-medium text-blue-800 underline">{rule.title}</Link>
                  {catalog.data && (
                    <p className="mt-1 text-sm text-slate-800">
                      <span className="text-slate-600">Applies to </span>
                      {appliesTo(conditionsInWords(rule.when, catalog.data))}
                    </p>
                  )}
                  <p className="mt-1 text-xs text-slate-600">
                    <code>{rule.id}</code> · {rule.category} · {rule.severity} · from {rule.effective_from}
                    {rule.retired_on ? ` to ${rule.retired_on}` : ""} · {rule.sources.join(", ")}
                    {rule.superseded_by.length > 0 ? ` · replaced by ${rule.superseded_by.join(", ")}` : ""}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

/** A rule's conditions as one line: "every platform" when it sets none. */
export function appliesTo(lines: string[]): string {
  return lines.length === 0 ? "every platform" : lines.join("; ");
}

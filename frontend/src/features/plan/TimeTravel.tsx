import { useQuery } from "@tanstack/react-query";
import { api, type Change, type Platform, unwrap } from "../../api/client";
import { ErrorMessage } from "../../components/States";

export const FIRST_SOURCE = "2004-05-01";

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

const QUICK = [
  { label: "2005", value: "2005-06-01" },
  { label: "2009", value: "2009-06-01" },
  { label: "2011", value: "2011-06-01" },
  { label: "Today", value: "" },
];

/** The "advice as of" control: choose a date, see what changed against the previous one. */
export function AsOfControl({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor="as-of" className="block text-sm font-medium text-slate-800">
          Advice as of
        </label>
        <input
          id="as-of"
          type="date"
          min={FIRST_SOURCE}
          max={today()}
          value={value || today()}
          onChange={(event) => onChange(event.target.value === today() ? "" : event.target.value)}
          className="mt-1 rounded border border-slate-400 bg-white px-2 py-1 text-sm"
        />
      </div>
      <div role="group" aria-label="Quick dates" className="flex gap-1">
        {QUICK.map((quick) => (
          <button
            key={quick.label}
            type="button"
            onClick={() => onChange(quick.value)}
            aria-pressed={value === quick.value}
            className={`rounded border px-2 py-1 text-xs ${
              value === quick.value ? "border-blue-800 bg-blue-800 text-white" : "border-slate-300 bg-white hover:bg-slate-100"
            }`}
          >
            {quick.label}
          </button>
        ))}
      </div>
    </div>
  );
}

export function useDateChanges(platform: Platform | null, from: string | null, to: string) {
  return useQuery({
    queryKey: ["compare", platform ? JSON.stringify(platform) : null, from, to],
    enabled: platform !== null && from !== null && from !== to,
    queryFn: async () =>
      unwrap(
        await api.POST("/api/v1/plans/compare", {
          body: {
            platform: platform as Platform,
            from_as_of: from || today(),
            to_as_of: to || today(),
          },
        }),
      ),
  });
}

export function ChangesList({ changes, from, to, error }: { changes: Change[] | undefined; from: string; to: string; error: unknown }) {
  if (error) return <ErrorMessage error={error} title="Could not compare the dates" />;
  if (!changes) return null;
  return (
    <div role="region" aria-label="What changed" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-semibold">
        {changes.length === 0
          ? `Nothing changed between ${from || "today"} and ${to || "today"}.`
          : `${changes.length} change(s) from ${from || "today"} to ${to || "today"} (highlighted below):`}
      </p>
      <ul className="mt-2 space-y-1">
        {changes.map((change) => (
          <li key={`${change.item}-${change.key}`}>
            <span className="font-medium">{change.kind}</span> {change.item} <code className="text-xs">{change.key}</code>
            {change.kind === "changed" && (
              <>
                : <code className="text-xs">{change.before}</code> → <code className="text-xs">{change.after}</code>
              </>
            )}
            <p className="text-xs text-slate-700">{change.reason}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

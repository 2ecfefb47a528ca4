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

const KIND_STYLE: Record<Change["kind"], string> = {
  added: "bg-green-100 text-green-900",
  removed: "bg-red-100 text-red-900",
  changed: "bg-slate-200 text-slate-800",
};

/** How each kind of item is named in the list (the key follows it). */
const ITEM_LABEL: Record<Change["item"], string> = {
  plan: "plan",
  platform: "platform",
  volume: "volume",
  mount: "mount",
  setting: "setting",
  finding: "finding",
  check: "check",
  expectation: "expectation",
};

function shown(value: string | null): string {
  return value === null || value === "" ? "(none)" : value;
}

/** The export a mount change's value starts with ("filer01:/vol/x rw,bg,…"). */
function mountExport(value: string | null): string {
  return (value ?? "").split(" ")[0] ?? "";
}

function Tokens({ change }: { change: Change }) {
  const removed = change.removed_tokens;
  const added = change.added_tokens;
  return (
    <ul aria-label={`Option changes on ${change.key}`} className="mt-1 flex flex-wrap gap-1">
      {removed.map((token) => (
        <li key={`-${token}`}>
          <del className="rounded bg-red-100 px-1.5 py-0.5 font-mono text-xs text-red-900 no-underline">
            <span className="sr-only">removed option </span>
            <span aria-hidden="true">−</span>
            {token}
          </del>
        </li>
      ))}
      {added.map((token) => (
        <li key={`+${token}`}>
          <ins className="rounded bg-green-100 px-1.5 py-0.5 font-mono text-xs text-green-900 no-underline">
            <span className="sr-only">added option </span>
            <span aria-hidden="true">+</span>
            {token}
          </ins>
        </li>
      ))}
    </ul>
  );
}

function ChangeKey({ change }: { change: Change }) {
  // A finding's key is "RULE-ID: message": the id as code, the message as text.
  const split = change.item === "finding" ? /^([A-Z][A-Z0-9-]*): (.*)$/s.exec(change.key) : null;
  if (split) {
    return (
      <>
        <code className="text-xs">{split[1]}</code>: {split[2]}
      </>
    );
  }
  return <code className="text-xs">{change.key}</code>;
}

function ChangeValue({ change }: { change: Change }) {
  const tokens = change.added_tokens.length + change.removed_tokens.length > 0;
  if (change.item === "mount" && change.kind === "changed" && tokens) {
    const before = mountExport(change.before);
    const after = mountExport(change.after);
    return (
      <>
        {before !== after && (
          <>
            : <code className="text-xs">{before}</code> → <code className="text-xs">{after}</code>
          </>
        )}
        <Tokens change={change} />
        <details className="mt-1">
          <summary className="cursor-pointer text-xs text-slate-700">Whole lines</summary>
          <p className="text-xs">
            before: <code>{shown(change.before)}</code>
          </p>
          <p className="text-xs">
            after: <code>{shown(change.after)}</code>
          </p>
        </details>
      </>
    );
  }
  if (change.kind === "changed" && (change.before ?? "").length + (change.after ?? "").length > 80) {
    // Long values (a bottleneck sentence, a latency budget) read better one above the other.
    return (
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
        <dt className="text-slate-600">before</dt>
        <dd>{shown(change.before)}</dd>
        <dt className="text-slate-600">after</dt>
        <dd>{shown(change.after)}</dd>
      </dl>
    );
  }
  if (change.kind === "changed") {
    return (
      <>
        : <code className="text-xs">{shown(change.before)}</code> → <code className="text-xs">{shown(change.after)}</code>
      </>
    );
  }
  const value = change.kind === "added" ? change.after : change.before;
  if (value === null) return null;
  // A finding's value is its severity; other items show what was added or removed.
  return change.item === "finding" ? <> ({value})</> : <>: <code className="text-xs">{shown(value)}</code></>;
}

export function ChangesList({ changes, from, to, error }: { changes: Change[] | undefined; from: string; to: string; error: unknown }) {
  if (error) return <ErrorMessage error={error} title="Could not compare the dates" />;
  if (!changes) return null;
  return (
    <div role="region" aria-label="What changed" className="min-w-0 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-semibold">
        {changes.length === 0
          ? `Nothing changed between ${from || "today"} and ${to || "today"}.`
          : `${changes.length} change(s) from ${from || "today"} to ${to || "today"} (highlighted below):`}
      </p>
      <ul className="mt-2 space-y-1.5">
        {changes.map((change) => (
          <li key={`${change.kind}-${change.item}-${change.key}`} className="min-w-0 wrap-anywhere" data-testid={`change-${change.item}`}>
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${KIND_STYLE[change.kind]}`}>{change.kind}</span>{" "}
            <span className="font-medium">{ITEM_LABEL[change.item]}</span> <ChangeKey change={change} />
            <ChangeValue change={change} />
            <p className="text-xs text-slate-700">{change.reason}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

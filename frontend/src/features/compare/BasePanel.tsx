// The base platform every variant is compared with: where it comes from, its answers in short,
// a preset to start again from, and what must be fixed in it before anything can be compared.
import { Link } from "react-router";
import type { Catalog } from "../../api/client";
import { PresetPicker } from "../../components/PresetPicker";
import { type Draft, encodeDraft } from "../../lib/draft";
import type { FieldErrors } from "../../lib/validation";
import { FIELD_LABELS, type Refusal } from "./model";

function BaseSummary({ draft, catalog }: { draft: Draft; catalog: Catalog }) {
  const os = catalog.os[draft.host.os];
  const release = os?.releases.find((r) => r.id === draft.host.os_version)?.label ?? draft.host.os_version;
  const rows: [string, string][] = [
    ["Host", `${release}, ${draft.host.arch}`],
    ["Network", `${draft.network.nic_count} × ${draft.network.nic_gbps} GbE, ${draft.network.jumbo_frames ? "jumbo frames" : "MTU 1500"}`],
    [
      "Oracle",
      `${draft.oracle.version}, ${draft.oracle.dnfs ? "Direct NFS" : "kernel NFS"} v${draft.oracle.nfs_version}, ${draft.oracle.workload.toUpperCase()}`,
    ],
    ["Storage", `${catalog.filers[draft.filer.vendor]?.label ?? draft.filer.vendor} ${draft.filer.model} ${draft.filer.os_version}`.trim()],
  ];
  return (
    <dl className="grid grid-cols-[5rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm" data-testid="base-summary">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface BasePanelProps {
  base: Draft;
  catalog: Catalog;
  /** The saved design the base comes from, when the link names one. */
  designId: string | null;
  designName: string | null | undefined;
  revision: number | undefined;
  errors: FieldErrors;
  valid: boolean;
  /** What the server refused in the base itself. */
  refusals: Refusal[];
  onPick: (picked: Draft) => void;
}

export function BasePanel({ base, catalog, designId, designName, revision, errors, valid, refusals, onPick }: BasePanelProps) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-2 text-lg font-semibold">Base platform</h2>
      {designName && designId && (
        <p className="mb-2 text-sm wrap-anywhere">
          From the design{" "}
          <Link className="text-blue-800 underline" to={`/d/${designId}`}>
            {designName}
          </Link>
          , revision {revision} (latest).
        </p>
      )}
      <BaseSummary draft={base} catalog={catalog} />
      <PresetPicker catalog={catalog} id="compare-preset" onPick={onPick} />
      <Link to={`/?${encodeDraft(base).toString()}`} className="mt-3 inline-block text-sm font-medium text-blue-800 underline">
        Edit the base in the wizard
      </Link>
      {(!valid || refusals.length > 0) && (
        <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">The base answers need a fix before anything can be compared:</p>
          <ul className="mt-1 list-disc pl-5">
            {Object.entries(errors).map(([field, message]) => (
              <li key={field}>
                {FIELD_LABELS[field] ?? "An answer"}: {message}
              </li>
            ))}
            {refusals.map((r) => (
              <li key={`${r.key}-${r.message}`}>
                {FIELD_LABELS[r.key] ?? "An answer"} {r.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

// Volume sizes with their arithmetic, the online redo logs, the archive alert and cloud capacity.
import type { PlanView } from "../../api/client";

export function Capacity({ plan }: { plan: PlanView }) {
  const capacity = plan.capacity;
  if (!capacity) return null;
  return (
    <div className="space-y-3 text-sm">
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Volume sizes">
        <table className="w-full text-left">
          <thead className="text-slate-600">
            <tr>
              <th className="py-1 pr-3 font-medium">Volume</th>
              <th className="py-1 pr-3 font-medium">Holds</th>
              <th className="py-1 pr-3 font-medium">Size</th>
              <th className="py-1 pr-3 font-medium">Snapshot reserve</th>
              <th className="py-1 font-medium">Grows to at most</th>
            </tr>
          </thead>
          <tbody>
            {plan.volumes.map((v) => (
              <tr key={v.name} className="border-t border-slate-200 align-top">
                <td className="py-1 pr-3 font-mono text-xs">{v.name}</td>
                <td className="py-1 pr-3">{v.holds.join(", ")}</td>
                <td className="py-1 pr-3">{v.size_gb ? `${v.size_gb.toLocaleString("en")} GB` : "not sized"}</td>
                <td className="py-1 pr-3">{v.sizing?.snapshot_reserve_pct ?? "-"}{v.sizing?.snapshot_reserve_pct != null ? "%" : ""}</td>
                <td className="py-1">{v.sizing?.autosize_max_gb ? `${v.sizing.autosize_max_gb.toLocaleString("en")} GB` : "-"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="list-disc space-y-1 pl-5 text-slate-800">
        {plan.volumes
          .filter((v) => v.sizing)
          .map((v) => (
            <li key={v.name}>
              <span className="font-mono text-xs">{v.name}</span>: {v.sizing?.arithmetic.join("; ")}
              {v.sizing && v.sizing.sources.length > 0 && (
                <span className="text-slate-600"> (sources: {v.sizing.sources.join("; ")})</span>
              )}
            </li>
          ))}
        {capacity.redo_logs && (
          <li>
            Online redo logs: {capacity.redo_logs.groups_per_thread} groups per thread ×{" "}
            {capacity.redo_logs.threads} thread(s), {capacity.redo_logs.log_file_mb.toLocaleString("en")} MB each (
            {capacity.redo_logs.basis}).
          </li>
        )}
        {capacity.archive && <li>{capacity.archive.note}</li>}
        {capacity.cloud && <li>{capacity.cloud.note}</li>}
        {(capacity.not_sized ?? []).map((line) => (
          <li key={line}>Not sized: {line}.</li>
        ))}
      </ul>
    </div>
  );
}

import type { PlanView, Schemas } from "../../api/client";
import { countWords, rateWords } from "../../lib/figures";
import { Why } from "./Why";

// One colour per part of the latency budget: CSS variables (index.css) with a light and a dark
// value, so the bar and its legend follow the theme.
const COLORS: Record<Schemas["LatencyPart"]["part"], string> = {
  wire: "var(--latency-wire)",
  switches: "var(--latency-switches)",
  routers: "var(--latency-routers)",
  server: "var(--latency-server)",
};

/** The planned scan in words: "about 1.2 GB/s", or the measured range where the model only has
 * what one kernel NFS connection carried ("384 MB/s to 448 MB/s"). */
function scanWords(scan: number, low?: number | null, high?: number | null): string {
  return low != null && high != null ? `${rateWords(low)} to ${rateWords(high)}` : `about ${rateWords(scan)}`;
}

export function Expectations({ plan }: { plan: PlanView }) {
  const e = plan.expectations;
  const total = e.latency_budget_us.reduce((sum, part) => sum + part.us, 0) || 1;
  const headline = e.planned_scan_mb_s ?? e.single_stream_mb_s;
  const capacity = Math.max(e.aggregate_ceiling_mb_s, e.nic_payload_ceiling_mb_s);
  const share = Math.min(headline / capacity, 1);
  const segments = e.latency_budget_us.map((part, index) => ({
    part,
    x: (e.latency_budget_us.slice(0, index).reduce((sum, p) => sum + p.us, 0) / total) * 600,
    width: (part.us / total) * 600,
  }));
  return (
    <div className="space-y-4">
      <div>
        <h3 className="text-sm font-semibold">
          Latency of one {e.transfer_bytes.toLocaleString()}-byte read: {e.rtt_us.toFixed(0)} µs
          {e.rtt_measured ? " (measured)" : " (modelled)"}
        </h3>
        <svg viewBox="0 0 600 28" className="mt-2 h-7 w-full" role="img" aria-label={`Latency budget: ${e.latency_budget_us.map((p) => `${p.part} ${p.us} microseconds`).join(", ")}`}>
          {segments.map(({ part, x, width }) => (
            <rect key={part.part} x={x} y={0} width={width} height={28} style={{ fill: COLORS[part.part] }} />
          ))}
        </svg>
        <ul className="mt-2 grid grid-cols-1 gap-1 text-xs sm:grid-cols-2">
          {e.latency_budget_us.map((part) => (
            <li key={part.part} className="flex items-start gap-2">
              <span aria-hidden="true" className="mt-0.5 inline-block h-3 w-3 shrink-0 rounded-sm" style={{ background: COLORS[part.part] }} />
              <span>
                <strong className="capitalize">{part.part}</strong> {part.us} µs — {part.note}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="text-sm font-semibold">
          {e.planned_scan_mb_s !== null && e.planned_scan_mb_s !== undefined
            ? `A large scan with ${e.planned_client}: ${scanWords(e.planned_scan_mb_s, e.planned_scan_low_mb_s, e.planned_scan_high_mb_s)} of ${rateWords(capacity)} over all links`
            : `One stream (${e.planned_client || "serial client"}): about ${rateWords(e.single_stream_mb_s)} of a ${rateWords(e.nic_payload_ceiling_mb_s)} link`}
        </h3>
        <div className="mt-2 h-4 w-full rounded bg-slate-200" role="img" aria-label={`Uses ${(share * 100).toFixed(0)} percent of the storage links`}>
          <div className="h-4 rounded bg-blue-700" style={{ width: `${share * 100}%` }} />
        </div>
        <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
          <div><dt className="inline font-medium">NFS overhead per 8 KB: </dt><dd className="inline">{e.nfs_overhead_8k_us} µs ({e.overhead_vs_disk_pct}% of a 7 ms disk read)</dd></div>
          <div><dt className="inline font-medium">TCP window needed: </dt><dd className="inline">{e.tcp_window_bytes.toLocaleString()} bytes</dd></div>
          <div><dt className="inline font-medium">All NICs: </dt><dd className="inline">{rateWords(e.aggregate_ceiling_mb_s)}</dd></div>
          <div><dt className="inline font-medium">One serial stream (one request at a time): </dt><dd className="inline">{rateWords(e.single_stream_mb_s)}</dd></div>
          {e.random_8k_reads_per_read_in_flight != null && (
            <div className="sm:col-span-2">
              <dt className="inline font-medium">8 KB random reads: </dt>
              <dd className="inline">
                {e.random_8k_reads_ceiling != null && e.random_8k_reads_in_flight_to_fill != null
                  ? `at most about ${countWords(e.random_8k_reads_ceiling)} a second over the planned paths; about ${countWords(e.random_8k_reads_per_read_in_flight)} a second per read in flight (the filer's own time on top), so it takes about ${e.random_8k_reads_in_flight_to_fill} reads in flight at once to reach that`
                  : `about ${countWords(e.random_8k_reads_per_read_in_flight)} a second per read in flight (the filer's own time on top); no source measured this client's ceiling`}
              </dd>
            </div>
          )}
        </dl>
      </div>
      <p className="text-sm"><strong>Bottleneck:</strong> {e.bottleneck}</p>
      {e.client_cpu_note && <p className="text-sm"><strong>Host CPU:</strong> {e.client_cpu_note}</p>}
      {e.improvements.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold">What would improve it</h3>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {e.improvements.map((idea) => <li key={idea}>{idea}</li>)}
          </ul>
        </div>
      )}
      <details className="text-xs text-slate-700">
        <summary className="cursor-pointer">Assumptions of the model</summary>
        <ul className="mt-1 list-disc pl-5">{e.assumptions.map((a) => <li key={a}>{a}</li>)}</ul>
      </details>
      {e.rules.length > 0 && <Why plan={plan} rules={e.rules} label="for the expectations" />}
    </div>
  );
}

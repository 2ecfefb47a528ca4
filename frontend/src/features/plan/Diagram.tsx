// The layout as a picture, drawn from the plan: hosts and their mounts, the network path, the
// filer and its volumes, and a line from every mount to the volume it mounts.
import type { PlanView } from "../../api/client";
import { managedNetwork } from "../../lib/constraints";
import { useCatalog } from "../wizard/usePlan";

const KEY_OPTIONS = ["forcedirectio", "llock", "noac", "actimeo=0", "cio"];
const ROW = 30;
const TOP = 64;

function tagsOf(options: string[]): string[] {
  return options.filter((option) => KEY_OPTIONS.includes(option));
}

type LineKind = "direct" | "uncached" | "cached";

/** How a mount's line is drawn: direct I/O first (it bypasses the page cache altogether), then
 * attribute caching off (noac, actimeo=0), else an ordinary cached mount. */
export function lineKind(options: string[]): LineKind {
  if (options.includes("forcedirectio")) return "direct";
  if (options.includes("noac") || options.includes("actimeo=0")) return "uncached";
  return "cached";
}

export const LINE_STYLE: Record<LineKind, { stroke: string; dash?: string; legend: string }> = {
  direct: { stroke: "#b45309", legend: "solid orange: forcedirectio (direct I/O)" },
  uncached: { stroke: "#7e22ce", dash: "1.5 3", legend: "dotted purple: attribute caching off (noac or actimeo=0)" },
  cached: { stroke: "#1e3a8a", dash: "4 3", legend: "dashed blue: cached mount" },
};

/** The legend for the kinds of line drawn, and only those. */
export function legendFor(mounts: { options: string[] }[]): string {
  const kinds = (["direct", "uncached", "cached"] as const).filter((k) => mounts.some((m) => lineKind(m.options) === k));
  return kinds.map((k) => LINE_STYLE[k].legend).join(" · ");
}

export function Diagram({ plan }: { plan: PlanView }) {
  const p = plan.platform;
  const catalog = useCatalog().data;
  // The filer by its display name; a managed cloud service's network is the provider's, with no
  // switches or MTU of the tenant's to draw (CLOUD-NETWORK-PROVIDER-PATH).
  const filerLabel = `${catalog?.filers[p.filer.vendor]?.label ?? p.filer.vendor} ${p.filer.model ?? ""} ${p.filer.os_version ?? ""}`.trim();
  const managed = catalog !== undefined && managedNetwork(catalog, p.filer.vendor);
  const nodes = p.oracle.rac ? (p.oracle.rac_nodes ?? 2) : 1;
  const mounts = plan.mounts;
  const volumes = plan.volumes;
  const height = TOP + Math.max(mounts.length, volumes.length, 3) * ROW + 40;
  const volumeY = new Map(volumes.map((v, i) => [v.name, TOP + 18 + i * ROW]));
  const mountsPerVolume = new Map<string, number>();
  for (const m of mounts) mountsPerVolume.set(m.volume, (mountsPerVolume.get(m.volume) ?? 0) + 1);
  const anyDirect = mounts.some((m) => m.options.includes("forcedirectio"));
  const hops = p.network.switch_hops ?? 1;
  const routers = p.network.router_hops ?? 0;
  const path: string[] = [];
  if (managed) path.push("the provider's network");
  else if (hops === 0 && routers === 0) path.push("back to back");
  if (!managed && hops > 0) path.push(`${hops} × ${p.network.switch === "hub" ? "hub" : p.network.switch === "cut_through" ? "cut-through switch" : "switch"}`);
  if (!managed && routers > 0) path.push(`${routers} × router`);
  const mtu = managed ? "cloud default MTU" : p.network.jumbo_frames ? "MTU 9000" : "MTU 1500";
  const description =
    `${nodes} host(s) with ${p.network.nic_count ?? 1} × ${p.network.nic_gbps} GbE (${mtu}) through ${path.join(", ")} ` +
    `to ${p.layout.filer_host}. ` +
    mounts.map((m) => `${m.mount_point} (${m.serves.join(" and ")}) mounts ${m.export}${tagsOf(m.options).length ? ` with ${tagsOf(m.options).join(", ")}` : ""}`).join("; ") +
    ".";

  return (
    <>
    <DiagramStacked plan={plan} path={path.join(", ")} mtu={mtu} nodes={nodes} filerLabel={filerLabel} />
    <figure className="hidden sm:block" aria-label="Layout diagram">
      <svg
        role="img"
        aria-labelledby="diagram-title diagram-desc"
        viewBox={`0 0 760 ${height}`}
        className="h-auto w-full"
      >
        <title id="diagram-title">Layout diagram</title>
        <desc id="diagram-desc">{description}</desc>
        {/* hosts */}
        {nodes > 1 && (
          <rect x="14" y="14" width="322" height={height - 30} rx="8" fill="#e2e8f0" stroke="#94a3b8" />
        )}
        <rect x="6" y="6" width="322" height={height - 30} rx="8" fill="#ffffff" stroke="#334155" />
        <text x="18" y="28" fontSize="13" fontWeight="600" fill="#0f172a">
          {p.host.hostname ?? "database host"} {nodes > 1 ? `(× ${nodes} RAC nodes)` : ""}
        </text>
        <text x="18" y="46" fontSize="11" fill="#334155">
          {p.host.os} {p.host.os_version} · Oracle {p.oracle.version} · {p.oracle.dnfs ? "dNFS" : "kernel NFS"}
        </text>
        {mounts.map((m, i) => {
          const y = TOP + 18 + i * ROW;
          const tags = tagsOf(m.options);
          const noDirect = anyDirect && !m.options.includes("forcedirectio");
          return (
            <g key={`${m.mount_point}-${m.role}`}>
              <circle cx="322" cy={y - 4} r="3.5" fill="#1e3a8a" />
              <text x="18" y={y} fontSize="11" fill="#0f172a" fontFamily="monospace">
                {m.mount_point}
              </text>
              <text x="18" y={y + 12} fontSize="9.5" fill="#475569">
                {m.serves.join("+")}
                {tags.length ? ` · ${tags.join(" ")}` : ""}
                {noDirect ? " · no forcedirectio" : ""}
              </text>
            </g>
          );
        })}
        {/* network path */}
        {/* Above the first mount line (y >= TOP + 14): no line crosses it. */}
        <rect x="346" y="14" width="104" height="52" rx="6" fill="#f1f5f9" stroke="#64748b" />
        <text x="398" y="31" fontSize="10.5" textAnchor="middle" fill="#0f172a">
          {p.network.nic_count ?? 1} × {p.network.nic_gbps} GbE
        </text>
        <text x="398" y="45" fontSize="10" textAnchor="middle" fill="#334155">
          {mtu}
        </text>
        <text x="398" y="59" fontSize="10" textAnchor="middle" fill="#334155">
          {path.join(", ")}
        </text>
        {/* filer */}
        <rect x="466" y="6" width="288" height={height - 30} rx="8" fill="#ffffff" stroke="#334155" />
        <text x="480" y="28" fontSize="13" fontWeight="600" fill="#0f172a">
          {p.layout.filer_host}
        </text>
        <text x="480" y="46" fontSize="11" fill="#334155">
          {filerLabel}
        </text>
        {volumes.map((v) => {
          const y = volumeY.get(v.name) ?? 0;
          const shared = (mountsPerVolume.get(v.name) ?? 0) > 1;
          return (
            <g key={v.name}>
              <circle cx="476" cy={y - 4} r="3.5" fill="#1e3a8a" />
              <text x="486" y={y} fontSize="11" fill="#0f172a" fontFamily="monospace">
                {v.name}
              </text>
              <text x="486" y={y + 12} fontSize="9.5" fill="#475569">
                {v.holds.join(", ")}
                {v.size_gb ? ` · ${v.size_gb.toLocaleString("en")} GB` : ""}
                {shared ? " · mounted twice" : ""}
              </text>
            </g>
          );
        })}
        {/* mount -> volume */}
        {mounts.map((m, i) => {
          const y1 = TOP + 18 + i * ROW - 4;
          const y2 = (volumeY.get(m.volume) ?? y1) - 4;
          const style = LINE_STYLE[lineKind(m.options)];
          return (
            <path
              key={`line-${m.mount_point}-${m.role}`}
              d={`M 326 ${y1} C 400 ${y1}, 400 ${y2}, 472 ${y2}`}
              fill="none"
              stroke={style.stroke}
              strokeWidth={style.dash === "1.5 3" ? "2.2" : "1.6"}
              strokeDasharray={style.dash}
              data-line={lineKind(m.options)}
            />
          );
        })}
        <text x="18" y={height - 6} fontSize="9.5" fill="#475569">
          Lines: {legendFor(mounts)}
        </text>
      </svg>
    </figure>
    </>
  );
}

/** The same layout for a phone: host, path and filer one under the other, each mount with the
 * volume it mounts and its line's style as a swatch, in text a phone can read. */
function DiagramStacked({
  plan,
  path,
  mtu,
  nodes,
  filerLabel,
}: {
  plan: PlanView;
  path: string;
  mtu: string;
  nodes: number;
  filerLabel: string;
}) {
  const p = plan.platform;
  return (
    <figure className="space-y-2 text-sm sm:hidden" aria-label="Layout diagram">
      <div className="rounded border border-slate-600 bg-white p-2">
        <p className="font-semibold">
          {p.host.hostname ?? "database host"} {nodes > 1 ? `(× ${nodes} RAC nodes)` : ""}
        </p>
        <p className="text-xs text-slate-700">
          {p.host.os} {p.host.os_version} · Oracle {p.oracle.version} · {p.oracle.dnfs ? "dNFS" : "kernel NFS"}
        </p>
        <ul className="mt-1 space-y-1">
          {plan.mounts.map((m) => {
            const style = LINE_STYLE[lineKind(m.options)];
            const tags = tagsOf(m.options);
            return (
              <li key={`${m.mount_point}-${m.role}`} className="flex items-start gap-2">
                <svg aria-hidden="true" width="28" height="10" className="mt-1.5 shrink-0">
                  <line x1="0" y1="5" x2="28" y2="5" stroke={style.stroke} strokeWidth="2" strokeDasharray={style.dash} />
                </svg>
                <span className="min-w-0 break-words">
                  <span className="font-mono text-xs">{m.mount_point}</span> ({m.serves.join("+")}) → <span className="font-mono text-xs">{m.volume}</span>
                  {tags.length ? <span className="text-xs text-slate-700"> · {tags.join(" ")}</span> : null}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
      <p className="rounded border border-slate-400 bg-slate-100 p-2 text-center text-xs">
        {p.network.nic_count ?? 1} × {p.network.nic_gbps} GbE · {mtu} · {path}
      </p>
      <div className="rounded border border-slate-600 bg-white p-2">
        <p className="font-semibold">{p.layout.filer_host}</p>
        <p className="text-xs text-slate-700">{filerLabel}</p>
        <ul className="mt-1 space-y-0.5">
          {plan.volumes.map((v) => (
            <li key={v.name} className="break-words">
              <span className="font-mono text-xs">{v.name}</span> <span className="text-xs text-slate-700">{v.holds.join(", ")}{v.size_gb ? ` · ${v.size_gb.toLocaleString("en")} GB` : ""}</span>
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="text-xs text-slate-700">Lines: {legendFor(plan.mounts)}</figcaption>
    </figure>
  );
}

// The layout as a picture, drawn from the plan: hosts and their mounts, the network path, the
// filer and its volumes, and a line from every mount to the volume it mounts.
import type { PlanView } from "../../api/client";

const KEY_OPTIONS = ["forcedirectio", "llock", "noac", "actimeo=0", "cio"];
const ROW = 30;
const TOP = 64;

function tagsOf(options: string[]): string[] {
  return options.filter((option) => KEY_OPTIONS.includes(option));
}

export function Diagram({ plan }: { plan: PlanView }) {
  const p = plan.platform;
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
  if (hops === 0 && routers === 0) path.push("back to back");
  if (hops > 0) path.push(`${hops} × ${p.network.switch === "hub" ? "hub" : p.network.switch === "cut_through" ? "cut-through switch" : "switch"}`);
  if (routers > 0) path.push(`${routers} × router`);
  const mtu = p.network.jumbo_frames ? "MTU 9000" : "MTU 1500";
  const description =
    `${nodes} host(s) with ${p.network.nic_count ?? 1} × ${p.network.nic_gbps} GbE (${mtu}) through ${path.join(", ")} ` +
    `to ${p.layout.filer_host}. ` +
    mounts.map((m) => `${m.mount_point} (${m.serves.join(" and ")}) mounts ${m.export}${tagsOf(m.options).length ? ` with ${tagsOf(m.options).join(", ")}` : ""}`).join("; ") +
    ".";

  return (
    <figure className="overflow-x-auto" tabIndex={0} aria-label="Layout diagram (scrolls sideways on small screens)">
      <svg
        role="img"
        aria-labelledby="diagram-title diagram-desc"
        viewBox={`0 0 760 ${height}`}
        className="h-auto w-full min-w-[560px]"
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
        <rect x="346" y="24" width="104" height="56" rx="6" fill="#f1f5f9" stroke="#64748b" />
        <text x="398" y="42" fontSize="10.5" textAnchor="middle" fill="#0f172a">
          {p.network.nic_count ?? 1} × {p.network.nic_gbps} GbE
        </text>
        <text x="398" y="56" fontSize="10" textAnchor="middle" fill="#334155">
          {mtu}
        </text>
        <text x="398" y="70" fontSize="10" textAnchor="middle" fill="#334155">
          {path.join(", ")}
        </text>
        {/* filer */}
        <rect x="466" y="6" width="288" height={height - 30} rx="8" fill="#ffffff" stroke="#334155" />
        <text x="480" y="28" fontSize="13" fontWeight="600" fill="#0f172a">
          {p.layout.filer_host}
        </text>
        <text x="480" y="46" fontSize="11" fill="#334155">
          {p.filer.vendor} {p.filer.model ?? ""} {p.filer.os_version ?? ""}
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
          const direct = m.options.includes("forcedirectio");
          return (
            <path
              key={`line-${m.mount_point}-${m.role}`}
              d={`M 326 ${y1} C 400 ${y1}, 400 ${y2}, 472 ${y2}`}
              fill="none"
              stroke={direct ? "#b45309" : "#1e3a8a"}
              strokeWidth="1.6"
              strokeDasharray={direct ? undefined : "4 3"}
            />
          );
        })}
        <text x="18" y={height - 6} fontSize="9.5" fill="#475569">
          Solid orange line: forcedirectio mount · dashed blue: cached mount
        </text>
      </svg>
    </figure>
  );
}

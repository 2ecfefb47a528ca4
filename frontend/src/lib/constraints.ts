// Choices the knowledge base refuses, read from the catalog's constraints (compatibility rules
// with error findings), so the wizard can disable them with the reason instead of planning an
// error.
import type { Catalog } from "../api/client";

function parts(version: string): number[] {
  return version.split(".").map((p) => Number.parseInt(p, 10) || 0);
}

function compare(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether a dotted release satisfies a simple specifier such as "<11.1" or ">=10.2,<12". */
export function inRange(version: string, spec: string): boolean {
  return spec.split(",").every((clause) => {
    const match = /^\s*(<=|>=|<|>|==)\s*([\d.]+)\s*$/.exec(clause);
    if (!match) return false;
    const [, op, bound] = match;
    const d = compare(version, bound ?? "0");
    return op === "<" ? d < 0 : op === "<=" ? d <= 0 : op === ">" ? d > 0 : op === ">=" ? d >= 0 : d === 0;
  });
}

/** The reason Direct NFS cannot be planned for this Oracle release, or null when it can. */
export function dnfsBlocked(catalog: Catalog, oracleVersion: string): string | null {
  if (!/^\d+(\.\d+)*$/.test(oracleVersion.trim())) return null;
  for (const c of catalog.constraints) {
    const keys = Object.keys(c.when).sort().join(",");
    const oracle = c.when.oracle;
    if (keys === "dnfs,oracle" && c.when.dnfs === true && typeof oracle === "string" && inRange(oracleVersion.trim(), oracle)) {
      return c.title;
    }
  }
  return null;
}

/** Whether the vendor is a managed cloud service whose network is the provider's (the catalog
 * says so per filer family): the wizard then asks no switch, hop or jumbo-frame question. */
export function managedNetwork(catalog: Catalog, vendor: string): boolean {
  return (catalog.filers[vendor]?.families ?? []).some((family) => family.managed_network);
}

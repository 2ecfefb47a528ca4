// The fields of each wizard step. Every choice list comes from the catalog.
// The larger steps live in their own files: StorageStep.tsx and HandoverStep.tsx.
import { useEffect } from "react";
import type { Catalog } from "../../api/client";
import { CheckField, SelectField, TextField } from "../../components/Fields";
import type { Draft, Section } from "../../lib/draft";
import { dnfsBlocked, managedNetwork } from "../../lib/constraints";
import type { FieldErrors } from "../../lib/validation";

export const STEPS = ["Host", "Network", "Oracle", "Storage", "Names & layout", "Hand-over & sizing", "Review"] as const;

export interface StepProps {
  draft: Draft;
  catalog: Catalog;
  errors: FieldErrors;
  set: <S extends Section>(section: S, field: keyof Draft[S] & string, value: string | boolean) => void;
}

export const grid = "grid grid-cols-1 gap-4 sm:grid-cols-2";

export function HostStep({ draft, catalog, errors, set }: StepProps) {
  const os = catalog.os[draft.host.os];
  return (
    <div className={grid}>
      <SelectField
        label="Operating system"
        name="host.os"
        value={draft.host.os}
        onChange={(value) => set("host", "os", value)}
        options={Object.entries(catalog.os).map(([id, entry]) => ({ value: id, label: entry.label }))}
      />
      <SelectField
        label="Release"
        name="host.os_version"
        value={draft.host.os_version}
        error={errors["host.os_version"]}
        onChange={(value) => set("host", "os_version", value)}
        options={(os?.releases ?? []).map((r) => ({ value: r.id, label: r.label }))}
      />
      <SelectField
        label="Processor architecture"
        name="host.arch"
        value={draft.host.arch}
        onChange={(value) => set("host", "arch", value)}
        options={(os?.arches ?? []).map((arch) => ({ value: arch, label: arch }))}
      />
      <TextField
        label="Memory per host (GB)"
        name="host.memory_gb"
        inputMode="numeric"
        value={draft.host.memory_gb}
        error={errors["host.memory_gb"]}
        hint="Optional; used to size the SGA advice."
        onChange={(value) => set("host", "memory_gb", value)}
      />
      <TextField
        label="Database host name"
        name="host.hostname"
        value={draft.host.hostname}
        error={errors["host.hostname"]}
        hint="Optional, e.g. dbhost01."
        onChange={(value) => set("host", "hostname", value)}
      />
      <TextField
        label="Storage NIC interface"
        name="host.nic_interface"
        value={draft.host.nic_interface}
        error={errors["host.nic_interface"]}
        hint={`Optional; default ${os?.default_interface ?? ""}.`}
        onChange={(value) => set("host", "nic_interface", value)}
      />
    </div>
  );
}

export function NetworkStep({ draft, catalog, errors, set }: StepProps) {
  // A cloud NAS service's network is the provider's: no switches, hops or MTU to choose
  // (CLOUD-NETWORK-PROVIDER-PATH), so those questions are not asked.
  const managed = managedNetwork(catalog, draft.filer.vendor);
  return (
    <div className={grid}>
      {managed && (
        <p className="text-sm text-slate-600 sm:col-span-2">
          {catalog.filers[draft.filer.vendor]?.label}: the network to the service is the cloud provider&apos;s, so there
          are no switch, router or jumbo-frame questions (rule CLOUD-NETWORK-PROVIDER-PATH).
        </p>
      )}
      <SelectField
        label="NIC speed"
        name="network.nic_gbps"
        value={draft.network.nic_gbps}
        onChange={(value) => set("network", "nic_gbps", value)}
        options={catalog.network.nic_speeds.map((s) => ({ value: String(s.gbps), label: s.label }))}
      />
      <TextField
        label="Storage NICs per host"
        name="network.nic_count"
        inputMode="numeric"
        value={draft.network.nic_count}
        error={errors["network.nic_count"]}
        onChange={(value) => set("network", "nic_count", value)}
      />
      {!managed && (
        <SelectField
          label="Switch type"
          name="network.switch"
          value={draft.network.switch}
          onChange={(value) => set("network", "switch", value)}
          options={catalog.network.switch_kinds.map((k) => ({ value: k.id, label: k.label }))}
        />
      )}
      {!managed && (
        <TextField
          label="Switches on the path"
          name="network.switch_hops"
          inputMode="numeric"
          value={draft.network.switch_hops}
          error={errors["network.switch_hops"]}
          hint="0 when host and filer are cabled back to back."
          onChange={(value) => set("network", "switch_hops", value)}
        />
      )}
      {!managed && (
        <TextField
          label="Routers on the path"
          name="network.router_hops"
          inputMode="numeric"
          value={draft.network.router_hops}
          error={errors["network.router_hops"]}
          onChange={(value) => set("network", "router_hops", value)}
        />
      )}
      <TextField
        label="Measured round trip (µs)"
        name="network.rtt_us"
        inputMode="decimal"
        value={draft.network.rtt_us}
        error={errors["network.rtt_us"]}
        hint="Optional; replaces the modelled round trip."
        onChange={(value) => set("network", "rtt_us", value)}
      />
      {!managed && (
        <CheckField
          label="Jumbo frames (MTU 9000)"
          name="network.jumbo_frames"
          checked={draft.network.jumbo_frames}
          onChange={(value) => set("network", "jumbo_frames", value)}
        />
      )}
      <CheckField
        label="Dedicated storage network or VLAN"
        name="network.dedicated_storage_network"
        checked={draft.network.dedicated_storage_network}
        onChange={(value) => set("network", "dedicated_storage_network", value)}
      />
    </div>
  );
}

export function OracleStep({ draft, catalog, errors, set }: StepProps) {
  const dnfsReason = dnfsBlocked(catalog, draft.oracle.version);
  useEffect(() => {
    if (dnfsReason && draft.oracle.dnfs) set("oracle", "dnfs", false);
  }, [dnfsReason, draft.oracle.dnfs, set]);
  return (
    <div className={grid}>
      <TextField
        label="Oracle release"
        name="oracle.version"
        value={draft.oracle.version}
        list={catalog.oracle.examples}
        error={errors["oracle.version"]}
        hint="Dotted, e.g. 9.2.0.4 or 19.21."
        onChange={(value) => set("oracle", "version", value)}
      />
      <SelectField
        label="Binaries"
        name="oracle.bits"
        value={draft.oracle.bits}
        onChange={(value) => set("oracle", "bits", value)}
        options={[
          { value: "64", label: "64-bit" },
          { value: "32", label: "32-bit" },
        ]}
      />
      <SelectField
        label="Workload"
        name="oracle.workload"
        value={draft.oracle.workload}
        onChange={(value) => set("oracle", "workload", value)}
        options={catalog.workloads.map((w) => ({ value: w.id, label: w.label }))}
      />
      <SelectField
        label="NFS version"
        name="oracle.nfs_version"
        value={draft.oracle.nfs_version}
        onChange={(value) => set("oracle", "nfs_version", value)}
        options={catalog.nfs_versions.map((v) => ({ value: v.id, label: v.label }))}
      />
      <TextField
        label="Instances on this host"
        name="oracle.instances"
        inputMode="numeric"
        value={draft.oracle.instances}
        error={errors["oracle.instances"]}
        onChange={(value) => set("oracle", "instances", value)}
      />
      {draft.oracle.rac && (
        <TextField
          label="Cluster nodes"
          name="oracle.rac_nodes"
          inputMode="numeric"
          value={draft.oracle.rac_nodes}
          error={errors["oracle.rac_nodes"]}
          hint="Optional; 2 when empty."
          onChange={(value) => set("oracle", "rac_nodes", value)}
        />
      )}
      <CheckField
        label="Real Application Clusters (RAC)"
        name="oracle.rac"
        checked={draft.oracle.rac}
        onChange={(value) => set("oracle", "rac", value)}
      />
      <CheckField
        label="Direct NFS (dNFS)"
        name="oracle.dnfs"
        checked={draft.oracle.dnfs && !dnfsReason}
        disabled={dnfsReason !== null}
        hint={dnfsReason ? `Not available: ${dnfsReason}.` : undefined}
        onChange={(value) => set("oracle", "dnfs", value)}
      />
      <CheckField
        label="ARCHIVELOG mode"
        name="oracle.archivelog"
        checked={draft.oracle.archivelog}
        onChange={(value) => set("oracle", "archivelog", value)}
      />
    </div>
  );
}

export function LayoutStep({ draft, errors, set }: StepProps) {
  return (
    <div className={grid}>
      <TextField
        label="Filer host name"
        name="layout.filer_host"
        value={draft.layout.filer_host}
        error={errors["layout.filer_host"]}
        hint="Host name or IPv4 address the hosts mount from."
        onChange={(value) => set("layout", "filer_host", value)}
      />
      <TextField
        label="Database name (DB_NAME)"
        name="layout.db_name"
        value={draft.layout.db_name}
        error={errors["layout.db_name"]}
        onChange={(value) => set("layout", "db_name", value)}
      />
      <SelectField
        label="ORACLE_HOME"
        name="layout.oracle_home"
        value={draft.layout.oracle_home}
        onChange={(value) => set("layout", "oracle_home", value)}
        options={[
          { value: "local", label: "On local disk" },
          { value: "nas", label: "On the filer" },
        ]}
      />
      <SelectField
        label="Volumes"
        name="layout.volumes"
        value={draft.layout.volumes}
        onChange={(value) => set("layout", "volumes", value)}
        options={[
          { value: "separate", label: "Separate: data, redo + control, archive" },
          { value: "shared", label: "Shared: data, redo and control in one volume" },
        ]}
      />
    </div>
  );
}

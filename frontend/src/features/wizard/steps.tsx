// The fields of each wizard step. Every choice list comes from the catalog.
import { useEffect } from "react";
import type { Catalog } from "../../api/client";
import { CheckField, SelectField, TextField } from "../../components/Fields";
import {
  CLOUD_VENDORS,
  ONTAP_VENDORS,
  pathCount,
  type Draft,
  type HandoverField,
  type Section,
  type SizingField,
} from "../../lib/draft";
import { dnfsBlocked, managedNetwork } from "../../lib/constraints";
import type { FieldErrors } from "../../lib/validation";

export const STEPS = ["Host", "Network", "Oracle", "Storage", "Names & layout", "Hand-over & sizing", "Review"] as const;

export interface StepProps {
  draft: Draft;
  catalog: Catalog;
  errors: FieldErrors;
  set: <S extends Section>(section: S, field: keyof Draft[S] & string, value: string | boolean) => void;
}

const grid = "grid grid-cols-1 gap-4 sm:grid-cols-2";

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

export function StorageStep({ draft, catalog, errors, set }: StepProps) {
  const vendor = catalog.filers[draft.filer.vendor];
  const known = (vendor?.families ?? []).flatMap((f) => f.known);
  return (
    <div className={grid}>
      <SelectField
        wide
        label="Storage vendor"
        name="filer.vendor"
        value={draft.filer.vendor}
        onChange={(value) => set("filer", "vendor", value)}
        options={Object.entries(catalog.filers).map(([id, entry]) => ({ value: id, label: entry.label }))}
      />
      <TextField
        label="Model"
        name="filer.model"
        value={draft.filer.model}
        list={vendor?.models ?? []}
        error={errors["filer.model"]}
        hint="Optional."
        onChange={(value) => set("filer", "model", value)}
      />
      <TextField
        label="Software release"
        name="filer.os_version"
        value={draft.filer.os_version}
        list={known}
        error={errors["filer.os_version"]}
        hint={(vendor?.families ?? []).map((f) => f.label).join(" or ")}
        onChange={(value) => set("filer", "os_version", value)}
      />
      {!managedNetwork(catalog, draft.filer.vendor) && (
        <TextField
          label="Filer NFS interface"
          name="filer.interface"
          value={draft.filer.interface}
          error={errors["filer.interface"]}
          hint="Optional: the port the NFS LIF lives on (not the LIF's name), e.g. e0a, a0a or a0a-100."
          onChange={(value) => set("filer", "interface", value)}
        />
      )}
      {(vendor?.service_levels ?? []).length > 0 && (
        <>
          <SelectField
            label="Service level"
            name="filer.service_level"
            value={draft.filer.service_level}
            error={errors["filer.service_level"]}
            onChange={(value) => set("filer", "service_level", value)}
            options={[
              { value: "", label: "Choose…" },
              ...(vendor?.service_levels ?? []).map((level) => ({
                value: level,
                label: level.charAt(0).toUpperCase() + level.slice(1),
              })),
            ]}
          />
          <TextField
            label="Provisioned capacity (TiB)"
            name="filer.capacity_tib"
            value={draft.filer.capacity_tib}
            error={errors["filer.capacity_tib"]}
            hint="With the service level, it sets the throughput the service allows."
            onChange={(value) => set("filer", "capacity_tib", value)}
          />
        </>
      )}
      {(vendor?.throughput_capacities ?? []).length > 0 && (
        <SelectField
          label="Throughput capacity (MBps per HA pair)"
          name="filer.throughput_mb_s"
          value={draft.filer.throughput_mb_s}
          error={errors["filer.throughput_mb_s"]}
          onChange={(value) => set("filer", "throughput_mb_s", value)}
          options={[
            { value: "", label: "Choose…" },
            ...(vendor?.throughput_capacities ?? []).map((mbps) => ({
              value: String(mbps),
              label: `${mbps.toLocaleString("en")} MBps`,
            })),
          ]}
        />
      )}
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

const LATER = "Optional: leave blank to fill in later; the runbook lists what is left.";

export function HandoverStep({ draft, catalog, errors, set }: StepProps) {
  const text = (field: HandoverField, label: string, hint?: string) => (
    <TextField
      key={field}
      label={label}
      name={`handover.${field}`}
      value={draft.handover[field] ?? ""}
      error={errors[`handover.${field}`]}
      hint={hint}
      onChange={(value) => set("handover", field, value)}
    />
  );
  const size = (field: SizingField, label: string, hint?: string) => (
    <TextField
      key={field}
      label={label}
      name={`sizing.${field}`}
      inputMode="decimal"
      value={draft.sizing[field]}
      error={errors[`sizing.${field}`]}
      hint={hint}
      onChange={(value) => set("sizing", field, value)}
    />
  );
  const ontap = ONTAP_VENDORS.has(draft.filer.vendor);
  const managed = managedNetwork(catalog, draft.filer.vendor);
  const paths = Array.from({ length: pathCount(draft) }, (_, i) => i + 1);
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">{LATER}</p>
      <SelectField
        label="The change"
        name="handover.change_kind"
        value={draft.handover.change_kind ?? ""}
        hint="Sets the runbook's outage, its data-move step and its backout."
        onChange={(value) => set("handover", "change_kind", value)}
        options={[
          { value: "", label: "Not said yet (the runbook plans a migration)" },
          { value: "migration", label: "Migration: the database moves here from other storage" },
          { value: "new_build", label: "New build: the database is created on these volumes" },
        ]}
      />
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Names</legend>
        <div className={grid}>
          {ontap && text("svm", "SVM (vserver) name", "e.g. svm_prod")}
          {draft.filer.vendor === "netapp" && text("aggregate", "Aggregate", "Where the volumes are created, e.g. aggr1")}
          {ontap &&
            draft.filer.vendor === "netapp" &&
            text("broadcast_domain", "Broadcast domain", "Of the NFS data ports, for the MTU step.")}
          {draft.filer.vendor === "aws_fsxn" &&
            text("fsx_svm_id", "FSx SVM id", "svm- and 17 hex digits: aws fsx describe-storage-virtual-machines lists it.")}
          {CLOUD_VENDORS.has(draft.filer.vendor) && text("capacity_pool", "Capacity pool", "Where the volumes are created.")}
          {draft.oracle.rac && text("cluster_nodes", "RAC node host names", "Every node, this host included, separated by commas.")}
          {text("client_subnet", "Client subnet", "For export policies, e.g. 192.168.10.0/24")}
          {draft.oracle.nfs_version === "4.1" && text("nfs4_id_domain", "NFSv4 ID domain", "Set on the SVM and in /etc/idmapd.conf.")}
          {text("oracle_uid", "Oracle owner user id", "e.g. 54321")}
          {text("oracle_gid", "Oracle owner group id", "e.g. 54321")}
        </div>
      </fieldset>
      {paths.map((n) => (
        <fieldset key={n}>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Storage path {n}</legend>
          <div className={grid}>
            {text(`p${n}_host_interface` as HandoverField, `Path ${n}: host interface`, "e.g. eth1")}
            {text(`p${n}_host_address` as HandoverField, `Path ${n}: host address`, "With its prefix, e.g. 192.168.10.11/24")}
            {!managed && text(`p${n}_filer_interface` as HandoverField, `Path ${n}: filer port`, "the LIF's home port, e.g. e0a or a0a-100")}
            {paths.length > 1 && text(`p${n}_filer_address` as HandoverField, `Path ${n}: filer address`, "e.g. 192.168.10.21")}
          </div>
          {n === 1 && (paths.length === 1 || managed) && (
            <p className="mt-2 text-xs text-slate-600">
              {paths.length === 1 && `With one path the hosts reach the filer by its name, ${draft.layout.filer_host}: no filer address is asked. `}
              {managed && "The service manages its own network interfaces: no filer interface is asked."}
            </p>
          )}
        </fieldset>
      ))}
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Sizing</legend>
        <p className="mb-2 text-sm text-slate-700">
          A volume is sized only when the inputs for its files are given; nothing is guessed.
        </p>
        <div className={grid}>
          {size("database_gb", "Datafiles today (GB)")}
          {size("growth_pct_per_year", "Growth per year (%)")}
          {size("horizon_years", "Horizon (years)")}
          {size("daily_change_pct", "Data changed per day (%)", "With the snapshot retention, sizes the snapshot reserve.")}
          {size("snapshot_retention_days", "Snapshot retention (days)")}
          {size("redo_mb_per_s", "Peak redo rate (MB/s)", "Sizes the online redo logs.")}
          {size("redo_gb_per_day", "Redo per day (GB)")}
          {size("archive_retention_days", "Archive retention (days)")}
          {draft.layout.oracle_home === "nas" && size("oracle_homes", "Oracle homes on the filer")}
          {draft.layout.oracle_home === "nas" &&
            size("oracle_home_gb", "Size of one Oracle home (GB)", "With its patches; no cited figure covers every platform.")}
          {draft.oracle.rac && size("crs_gb", "Clusterware files (GB)", "OCR and voting files.")}
        </div>
      </fieldset>
    </div>
  );
}

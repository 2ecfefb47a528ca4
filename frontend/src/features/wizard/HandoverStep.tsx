// The Hand-over & sizing step: the names, storage paths and sizing inputs the runbook needs.
import { SelectField, TextField } from "../../components/Fields";
import { CLOUD_VENDORS, ONTAP_VENDORS, pathCount, type HandoverField, type SizingField } from "../../lib/draft";
import { managedNetwork } from "../../lib/constraints";
import { grid, type StepProps } from "./steps";

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

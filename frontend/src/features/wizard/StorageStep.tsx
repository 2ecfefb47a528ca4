// The Storage step: the filer's vendor, model and release, its NFS interface and, where the vendor
// offers them, a service level, capacity and throughput.
import { SelectField, TextField } from "../../components/Fields";
import { managedNetwork } from "../../lib/constraints";
import { grid, type StepProps } from "./steps";

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

// The Storage step: the filer's vendor, model and release, its NFS interface and, where the vendor
// offers them, a service level, capacity and throughput (fields.yaml says which vendor asks which).
import { StepAnswers } from "./AnswerInput";
import { grid, type StepProps } from "./steps";

export function StorageStep(props: StepProps) {
  const families = props.catalog.filers[props.draft.filer.vendor]?.families ?? [];
  return (
    <div className={grid}>
      <StepAnswers {...props} step="storage" hints={{ "filer.os_version": families.map((f) => f.label).join(" or ") }} />
    </div>
  );
}

// The wizard's steps. Each draws its answers from the fields table (AnswerInput.tsx); only what
// spans fields (a hint from the OS, Direct NFS refused by the Oracle release) is written here.
// The larger steps live in their own files: StorageStep.tsx and HandoverStep.tsx.
import { useEffect } from "react";
import type { Catalog } from "../../api/client";
import type { Draft, Section } from "../../lib/draft";
import { dnfsBlocked, managedNetwork } from "../../lib/constraints";
import type { FieldErrors } from "../../lib/validation";
import { StepAnswers } from "./AnswerInput";

export const STEPS = ["Host", "Network", "Oracle", "Storage", "Names & layout", "Hand-over & sizing", "Review"] as const;

export interface StepProps {
  draft: Draft;
  catalog: Catalog;
  errors: FieldErrors;
  set: <S extends Section>(section: S, field: keyof Draft[S] & string, value: string | boolean) => void;
}

export const grid = "grid grid-cols-1 gap-4 sm:grid-cols-2";

export function HostStep(props: StepProps) {
  const os = props.catalog.os[props.draft.host.os];
  return (
    <div className={grid}>
      <StepAnswers {...props} step="host" hints={{ "host.nic_interface": `Optional; default ${os?.default_interface ?? ""}.` }} />
    </div>
  );
}

export function NetworkStep(props: StepProps) {
  const { draft, catalog } = props;
  // A cloud NAS service's network is the provider's: no switches, hops or MTU to choose
  // (CLOUD-NETWORK-PROVIDER-PATH), so those questions are not asked (fields.yaml: shown_when).
  return (
    <div className={grid}>
      {managedNetwork(catalog, draft.filer.vendor) && (
        <p className="text-sm text-slate-600 sm:col-span-2">
          {catalog.filers[draft.filer.vendor]?.label}: the network to the service is the cloud provider&apos;s, so there
          are no switch, router or jumbo-frame questions (rule CLOUD-NETWORK-PROVIDER-PATH).
        </p>
      )}
      <StepAnswers {...props} step="network" />
    </div>
  );
}

export function OracleStep(props: StepProps) {
  const { draft, catalog, set } = props;
  const dnfsReason = dnfsBlocked(catalog, draft.oracle.version);
  useEffect(() => {
    if (dnfsReason && draft.oracle.dnfs) set("oracle", "dnfs", false);
  }, [dnfsReason, draft.oracle.dnfs, set]);
  return (
    <div className={grid}>
      <StepAnswers
        {...props}
        step="oracle"
        hints={{ "oracle.dnfs": dnfsReason ? `Not available: ${dnfsReason}.` : undefined }}
        locked={{ "oracle.dnfs": dnfsReason !== null }}
      />
    </div>
  );
}

export function LayoutStep(props: StepProps) {
  return (
    <div className={grid}>
      <StepAnswers {...props} step="layout" />
    </div>
  );
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, type Catalog, type DesignCreated, type Platform, unwrap } from "../../api/client";
import { AcknowledgeErrors, errorFindings } from "../../components/AcknowledgeErrors";
import { CopyButton } from "../../components/CopyButton";
import { TextField } from "../../components/Fields";
import { ErrorMessage } from "../../components/States";
import { planKeys } from "../../lib/planKeys";
import type { Draft } from "../../lib/draft";
import { capabilityHash, readCapabilities } from "../../lib/fragment";
import type { FieldErrors } from "../../lib/validation";
import { RememberEditLink } from "../designs/RememberEditLink";
import { recordDesign } from "../designs/yourDesigns";
import { usePlan } from "./usePlan";

interface Props {
  draft: Draft;
  catalog: Catalog;
  errors: FieldErrors;
  platform: Platform | null;
  editing: string | null;
  base: number | null;
}

function Summary({ draft, catalog }: { draft: Draft; catalog: Catalog }) {
  const os = catalog.os[draft.host.os];
  const release = os?.releases.find((r) => r.id === draft.host.os_version)?.label ?? draft.host.os_version;
  const rows: [string, string][] = [
    ["Host", `${release}, ${draft.host.arch}${draft.host.memory_gb ? `, ${draft.host.memory_gb} GB` : ""}`],
    [
      "Network",
      `${draft.network.nic_count} × ${draft.network.nic_gbps} GbE, ${draft.network.jumbo_frames ? "jumbo frames" : "MTU 1500"}, ` +
        `${draft.network.switch_hops} switch(es), ${draft.network.router_hops} router(s)`,
    ],
    [
      "Oracle",
      `${draft.oracle.version} ${draft.oracle.bits}-bit, ${draft.oracle.rac ? "RAC" : "single instance"}, ` +
        `${draft.oracle.dnfs ? "Direct NFS" : "kernel NFS"} v${draft.oracle.nfs_version}, ${draft.oracle.workload.toUpperCase()}`,
    ],
    ["Storage", `${catalog.filers[draft.filer.vendor]?.label ?? draft.filer.vendor} ${draft.filer.model} ${draft.filer.os_version}`],
    ["Layout", `${draft.layout.db_name} on ${draft.layout.filer_host}, ORACLE_HOME ${draft.layout.oracle_home === "nas" ? "on the filer" : "local"}`],
  ];
  return (
    <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LinkRow({ label, url, note }: { label: string; url: string; note: string }) {
  return (
    <div className="mt-3">
      <p className="text-sm font-medium">{label}</p>
      <div className="mt-1 flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 text-xs">{url}</code>
        <CopyButton text={url} label={`Copy the ${label.toLowerCase()}`} />
      </div>
      <p className="mt-1 text-xs text-slate-600">{note}</p>
    </div>
  );
}

export function SavedLinks({ created }: { created: DesignCreated }) {
  const origin = window.location.origin;
  const permalink = `${origin}/d/${created.id}`;
  // The Save button is gone once saved: the keyboard (and a screen reader) land on the links.
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div role="region" aria-label="Saved design links" className="mt-4 rounded border border-green-300 bg-green-50 p-3">
      <p ref={heading} tabIndex={-1} className="text-sm font-semibold text-green-900 focus:outline-none">
        Saved. Copy the links now: the tokens are shown only once.
      </p>
      <LinkRow label="Permalink" url={permalink} note="Read-only: anyone with it sees the design." />
      <LinkRow label="Edit link" url={`${permalink}${capabilityHash("edit", created.edit_token)}`} note="Adds revisions. Keep it to the design's authors." />
      <LinkRow label="Review link" url={`${permalink}${capabilityHash("review", created.review_token)}`} note="Records approvals and comments. Give it to the reviewers." />
      <Link to={`/d/${created.id}${capabilityHash("edit", created.edit_token)}`} className="mt-3 inline-block text-sm font-medium text-blue-800 underline">
        Open the design
      </Link>
    </div>
  );
}

export function ReviewStep({ draft, catalog, errors, platform, editing, base }: Props) {
  const [name, setName] = useState(`${draft.layout.db_name} on ${draft.layout.filer_host}`);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = readCapabilities(location.hash).edit;
  // The plan of exactly these answers (shared with the plan panel's query): its error findings
  // must be acknowledged before the server saves it.
  const plan = usePlan(platform);
  const current = plan.data !== undefined && !plan.isPlaceholderData && !plan.isError;
  const errorItems = current ? errorFindings(plan.data?.findings) : [];
  // What was acknowledged: ticking the box holds only for these very findings.
  const errorsSignature = plan.data ? errorItems.map(planKeys(plan.data).finding).join("\n") : "";
  const [acknowledgedFor, setAcknowledgedFor] = useState<string | null>(null);
  const acknowledged = errorItems.length > 0 && acknowledgedFor === errorsSignature;
  const checking = platform !== null && plan.isFetching && !current;
  const unacknowledged = errorItems.length > 0 && !acknowledged;
  const save = useMutation({
    mutationFn: async () => {
      if (!platform) throw new Error("fix the answers first");
      return unwrap(await api.POST("/api/v1/designs", { body: { name: name.trim(), platform, acknowledge_errors: acknowledged } }));
    },
    // Listed in "Your designs" by id and name only; a storage failure leaves the save as it is.
    onSuccess: (created) => void recordDesign({ id: created.id, name: created.name }),
  });
  const revise = useMutation({
    mutationFn: async () => {
      if (!platform || !editing || base === null || !token) throw new Error("no edit token");
      return unwrap(
        await api.POST("/api/v1/designs/{design_id}/revisions", {
          params: { path: { design_id: editing }, header: { "x-edit-token": token } },
          body: { platform, base_revision: base, acknowledge_errors: acknowledged },
        }),
      );
    },
    onSuccess: async (revision) => {
      await queryClient.invalidateQueries({ queryKey: ["design", editing] });
      navigate(`/d/${editing}/r/${revision.number}${location.hash}`);
    },
  });
  const nameError = name.trim() === "" ? "give the design a name" : name.length > 120 ? "at most 120 characters" : undefined;
  const problems = Object.keys(errors).length;
  return (
    <div>
      <Summary draft={draft} catalog={catalog} />
      {current && plan.data && (
        <p className="mt-3 text-sm font-medium" data-testid="review-counts">
          The plan: {plan.data.findings.filter((f) => f.severity === "error").length} error(s) ·{" "}
          {plan.data.findings.filter((f) => f.severity === "warning").length} warning(s) · {plan.data.mounts.length} mount(s) ·{" "}
          {plan.data.volumes.length} volume(s)
        </p>
      )}
      {problems > 0 && (
        <p className="mt-3 text-sm text-red-800">
          {problems} answer(s) need a fix before the design can be saved (see the red steps).
        </p>
      )}
      {!save.data && errorItems.length > 0 && (
        <div className="mt-4">
          <AcknowledgeErrors
            findings={errorItems}
            verb="save"
            checked={acknowledged}
            onChange={(checked) => setAcknowledgedFor(checked ? errorsSignature : null)}
          />
        </div>
      )}
      {checking && (
        <p role="status" className="mt-3 text-sm text-slate-600">
          Checking the plan for error findings…
        </p>
      )}
      {editing ? (
        <div className="mt-4">
          <button
            type="button"
            disabled={!platform || !token || checking || unacknowledged || revise.isPending}
            onClick={() => revise.mutate()}
            className="rounded bg-green-800 px-4 py-2 text-sm font-medium text-white disabled:opacity-50"
          >
            {revise.isPending ? "Saving…" : `Save as revision ${(base ?? 0) + 1}`}
          </button>
          {revise.isError && <div className="mt-3"><ErrorMessage error={revise.error} title="Not saved" /></div>}
        </div>
      ) : save.data ? (
        <>
          <SavedLinks created={save.data} />
          <RememberEditLink design={save.data} />
        </>
      ) : (
        <div className="mt-4 space-y-3">
          <TextField label="Design name" name="design.name" value={name} error={nameError} onChange={setName} />
          <button
            type="button"
            disabled={!platform || Boolean(nameError) || checking || unacknowledged || save.isPending}
            onClick={() => save.mutate()}
            className="rounded bg-green-800 px-4 py-2 text-sm font-medium text-white disabled:opacity-50"
          >
            {save.isPending ? "Saving…" : "Save design"}
          </button>
          {save.isError && <ErrorMessage error={save.error} title="Not saved" />}
        </div>
      )}
    </div>
  );
}

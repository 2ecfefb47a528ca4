// /audit: paste or drop what already runs, get findings from the same rules as the plan.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { SelectField, TextField } from "../../components/Fields";
import { PresetPicker } from "../../components/PresetPicker";
import { ErrorMessage, Loading } from "../../components/States";
import type { Platform } from "../../api/client";
import { decodeDraft, draftFromPlatform, encodeDraft, toPlatform } from "../../lib/draft";
import { readCapabilities } from "../../lib/fragment";
import { validateDraft } from "../../lib/validation";
import { useCatalog } from "../wizard/usePlan";
import { Report } from "./AuditReport";
import { CollectionUpload } from "./CollectionUpload";
import {
  type CollectionReport,
  type InferredAnswer,
  type DeclaredRole,
  type FileKind,
  kindLabels,
  type PasteDraft,
  type PlatformSuggestion,
  applyAnswers,
  applySuggestion,
  auditBody,
} from "./model";

const BUTTON = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100";

export default function AuditPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const catalog = useCatalog();
  const designId = new URLSearchParams(location.search).get("design");
  const design = useQuery({
    queryKey: ["design", designId],
    enabled: designId !== null,
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/designs/{design_id}", { params: { path: { design_id: designId ?? "" } } })),
  });
  const draft = useMemo(
    () => (design.data ? draftFromPlatform(design.data.latest.platform) : decodeDraft(location.search)),
    [design.data, location.search],
  );
  const [pastes, setPastes] = useState<PasteDraft[]>([{ id: 1, name: "fstab", kind: "auto", text: "" }]);
  const [roles, setRoles] = useState<Record<string, DeclaredRole>>({});
  const errors = catalog.data
    ? validateDraft(draft, catalog.data.filers[draft.filer.vendor]?.release_required ?? false)
    : {};
  const valid = Object.keys(errors).length === 0;

  const run = useMutation({
    mutationFn: async ({
      answers,
      platform,
      files,
    }: {
      answers: Record<string, DeclaredRole>;
      platform: Platform;
      /** The pastes to send, when they were just replaced (state updates land later). */
      files?: PasteDraft[];
    }) => unwrap(await api.POST("/api/v1/audits", { body: auditBody(platform, files ?? pastes, answers) })),
  });
  const queryClient = useQueryClient();
  const editToken = readCapabilities(location.hash).edit;
  const [label, setLabel] = useState("before");
  const keep = useMutation({
    mutationFn: async () => {
      const body = auditBody(toPlatform(draft), pastes, roles);
      return unwrap(
        await api.POST("/api/v1/designs/{design_id}/audits", {
          params: { path: { design_id: designId ?? "" }, header: { "x-edit-token": editToken ?? "" } },
          body: { revision: design.data?.latest.number ?? 1, label, pastes: body.pastes, roles: body.roles },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["design", designId, "audits"] }),
  });

  if (catalog.isPending) return <Loading what="the catalog" />;
  if (catalog.error) return <ErrorMessage error={catalog.error} />;
  if (designId !== null && design.isPending) return <Loading what="the design" />;
  if (design.error) return <ErrorMessage error={design.error} title="Could not open the design" />;

  function update(id: number, change: Partial<PasteDraft>) {
    setPastes((list) => list.map((p) => (p.id === id ? { ...p, ...change } : p)));
  }

  async function addFiles(files: FileList | null) {
    if (!files) return;
    const read = await Promise.all([...files].map(async (file) => ({ name: file.name, text: await file.text() })));
    setPastes((list) => {
      const next = Math.max(0, ...list.map((p) => p.id)) + 1;
      const kept = list.filter((p) => p.text.trim() !== "");
      return [...kept, ...read.map((f, i) => ({ id: next + i, name: f.name, kind: "auto" as FileKind, text: f.text }))];
    });
  }

  function setRole(point: string, role: DeclaredRole | "") {
    const next = Object.fromEntries(Object.entries(roles).filter(([key]) => key !== point));
    if (role !== "") next[point] = role;
    setRoles(next);
    run.mutate({ answers: next, platform: toPlatform(draft) });
  }

  function apply(suggestion: PlatformSuggestion) {
    if (!catalog.data) return;
    const next = applySuggestion(draft, suggestion, catalog.data);
    navigate(`/audit?${encodeDraft(next).toString()}`);
    run.mutate({ answers: roles, platform: toPlatform(next) });
  }

  function auditCollection(answers: InferredAnswer[], report: CollectionReport) {
    if (!catalog.data) return;
    const files = report.pastes.map((p, i) => ({ id: i + 1, name: p.name ?? "", kind: p.kind as FileKind, text: p.text ?? "" }));
    setPastes(files);
    if (design.data) {
      // Against a saved design the platform is the design's: the host is checked, not adopted.
      run.mutate({ answers: roles, platform: toPlatform(draft), files });
      return;
    }
    const next = applyAnswers(draft, answers, catalog.data);
    navigate(`/audit?${encodeDraft(next).toString()}`);
    run.mutate({ answers: roles, platform: toPlatform(next), files });
  }

  const labels = kindLabels(catalog.data);
  const kinds = Object.keys(labels) as FileKind[];
  const wizardLink = `/?${encodeDraft(draft).toString()}`;
  return (
    <div className="mx-auto grid max-w-7xl gap-6 px-4 py-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <div className="space-y-4 print:hidden">
        <h1 className="text-2xl font-semibold tracking-tight">Audit what already runs</h1>
        <p className="text-sm text-slate-700">
          Paste or drop configuration files and command outputs. nasplan plans the platform below and compares: the same
          rules, no others.
        </p>
        <section aria-label="Platform" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">Platform</h2>
          {design.data && (
            <p className="mt-1 text-sm" data-testid="audit-design">
              From the design <Link to={`/d/${design.data.id}`} className="text-blue-800 underline">{design.data.name}</Link>, revision{" "}
              {design.data.latest.number}
            </p>
          )}
          <p className="mt-1 text-sm wrap-anywhere" data-testid="audit-platform">
            {catalog.data.os[draft.host.os]?.label ?? draft.host.os} {draft.host.os_version} · Oracle {draft.oracle.version}{" "}
            {draft.oracle.rac ? "RAC" : "single instance"} · {draft.oracle.dnfs ? "Direct NFS" : "kernel NFS"} ·{" "}
            {catalog.data.filers[draft.filer.vendor]?.label ?? draft.filer.vendor} {draft.filer.os_version}
          </p>
          <Link to={wizardLink} className="mt-1 inline-block text-sm font-medium text-blue-800 underline">
            Change it in the wizard
          </Link>
          <PresetPicker catalog={catalog.data} id="audit-preset" onPick={(picked) => navigate(`/audit?${encodeDraft(picked).toString()}`)} />
          {!valid && <p className="mt-2 text-sm text-red-800">The wizard's answers have problems: fix them there first.</p>}
        </section>
        <form
          aria-label="Pasted files"
          className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          onSubmit={(event) => {
            event.preventDefault();
            run.mutate({ answers: roles, platform: toPlatform(draft) });
          }}
        >
          {pastes.map((paste, index) => (
            <fieldset key={paste.id} className="space-y-2 border-b border-slate-200 pb-4">
              <legend className="text-sm font-semibold">Paste {index + 1}</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                <TextField label={`Name (paste ${index + 1})`} name={`paste-${paste.id}-name`} value={paste.name} onChange={(value) => update(paste.id, { name: value })} />
                <SelectField
                  label={`What it is (paste ${index + 1})`}
                  name={`paste-${paste.id}-kind`}
                  value={paste.kind}
                  onChange={(value) => update(paste.id, { kind: value as FileKind })}
                  options={kinds.map((k) => ({ value: k, label: labels[k] ?? k }))}
                />
              </div>
              <label htmlFor={`paste-${paste.id}-text`} className="block text-sm font-medium text-slate-800">
                Text (paste {index + 1})
              </label>
              <textarea
                id={`paste-${paste.id}-text`}
                value={paste.text}
                onChange={(event) => update(paste.id, { text: event.target.value })}
                rows={8}
                spellCheck={false}
                className="w-full rounded border border-slate-400 p-2 font-mono text-xs"
              />
              {pastes.length > 1 && (
                <button type="button" className="text-sm text-red-800 underline" onClick={() => setPastes((list) => list.filter((p) => p.id !== paste.id))}>
                  Remove paste {index + 1}
                </button>
              )}
            </fieldset>
          ))}
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className={BUTTON}
              onClick={() => setPastes((list) => [...list, { id: Math.max(0, ...list.map((p) => p.id)) + 1, name: "", kind: "auto", text: "" }])}
            >
              Add a paste
            </button>
            <label className="text-sm font-medium text-slate-800">
              Or add files:{" "}
              <input type="file" multiple onChange={(event) => void addFiles(event.target.files)} className="text-sm" />
            </label>
          </div>
          <button type="submit" disabled={!valid || run.isPending} className="rounded bg-blue-800 px-4 py-2 text-sm font-medium text-white hover:bg-blue-900 disabled:opacity-50">
            {run.isPending ? "Checking…" : "Check"}
          </button>
        </form>
        <CollectionUpload
          onUse={auditCollection}
          wizardLink={(answers) => `/?${encodeDraft(applyAnswers(draft, answers, catalog.data)).toString()}`}
          design={design.data ? draft : undefined}
        />
      </div>
      <div className="min-w-0">
        {run.error && <ErrorMessage error={run.error} title="The audit failed" />}
        {run.data ? (
          <>
            {design.data && editToken && (
              <form
                aria-label="Keep this audit on the design"
                className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-blue-200 bg-blue-50 p-4 print:hidden"
                onSubmit={(event) => {
                  event.preventDefault();
                  keep.mutate();
                }}
              >
                <TextField label="Keep as" name="audit-label" value={label} onChange={setLabel} />
                <button type="submit" disabled={keep.isPending || label.trim() === ""} className={BUTTON}>
                  Keep on the design (revision {design.data.latest.number})
                </button>
                {keep.isSuccess && (
                  <p className="text-sm" role="status">
                    Kept as "{keep.data.label}" on{" "}
                    <Link to={`/d/${design.data.id}${location.hash}`} className="text-blue-800 underline">the design</Link>.
                  </p>
                )}
                {keep.error && <ErrorMessage error={keep.error} title="Could not keep the audit" />}
              </form>
            )}
            <Report report={run.data} labels={labels} roles={roles} onRole={setRole} onApply={design.data ? null : apply} />
          </>
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-sm text-slate-700">
            The findings appear here: by file and severity, each with the line to use instead and why.
          </p>
        )}
      </div>
    </div>
  );
}

// /audit: paste or drop what already runs, get findings from the same rules as the plan.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { CopyButton } from "../../components/CopyButton";
import { SelectField, TextField } from "../../components/Fields";
import { PresetPicker } from "../../components/PresetPicker";
import { ErrorMessage, Loading } from "../../components/States";
import type { Platform } from "../../api/client";
import { decodeDraft, draftFromPlatform, encodeDraft, toPlatform } from "../../lib/draft";
import { readCapabilities } from "../../lib/fragment";
import { validateDraft } from "../../lib/validation";
import { useCatalog } from "../wizard/usePlan";
import {
  type AuditReport,
  type DeclaredRole,
  type FileKind,
  kindLabels,
  type PasteDraft,
  type PlatformSuggestion,
  ROLE_CHOICES,
  applySuggestion,
  auditBody,
  byFile,
  byLine,
  counts,
  lineCounts,
  omissions,
  toMarkdown,
} from "./model";

const BUTTON = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100";

const SEVERITY_STYLE = {
  error: "border-red-300 bg-red-50",
  warning: "border-amber-300 bg-amber-50",
  info: "border-slate-200 bg-white",
} as const;

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function downloadText(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Report({
  report,
  labels,
  roles,
  onRole,
  onApply,
}: {
  report: AuditReport;
  /** The kinds of paste in words (the catalog's). */
  labels: Record<string, string>;
  roles: Record<string, DeclaredRole>;
  onRole: (mountPoint: string, role: DeclaredRole | "") => void;
  /** Apply a suggested answer and audit again; null when the platform is a saved design's. */
  onApply: ((suggestion: PlatformSuggestion) => void) | null;
}) {
  const c = lineCounts(report);
  const all = counts(report);
  return (
    <div className="space-y-4">
      <section aria-label="Audit summary" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <p className="text-lg font-semibold" data-testid="audit-verdict">
          Score {report.score ?? "n/a"}% · {plural(c.error, "line")} with errors · {plural(c.warning, "line")} with
          warnings · {plural(c.info, "note")}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Knowledge base {report.kb_version}, advice as of {report.as_of}. The score is the share of the checked lines
          and values with no error or warning. Each line below gathers what is wrong with it ({all.error + all.warning}{" "}
          option(s) or value(s) in all), with the rule of each and one line to write instead.
        </p>
        {omissions(report).map((note) => (
          <p key={note} className="mt-1 text-sm text-amber-900" data-testid="audit-omitted">
            {note}
          </p>
        ))}
        <div className="mt-3 flex flex-wrap gap-2 print:hidden">
          <button type="button" className={BUTTON} onClick={() => downloadText("nasplan-audit.md", toMarkdown(report), "text/markdown")}>
            Export Markdown
          </button>
          <button type="button" className={BUTTON} onClick={() => downloadText("nasplan-audit.json", JSON.stringify(report, null, 2), "application/json")}>
            Export JSON
          </button>
          <button type="button" className={BUTTON} onClick={() => window.print()}>
            Print
          </button>
        </div>
      </section>

      {report.platform_hints && report.platform_hints.length > 0 && (
        <section aria-label="The pastes and the platform disagree" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
          <h2 className="text-lg font-semibold">The pastes and the platform disagree</h2>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {report.platform_hints.map((hint) => (
              <li key={hint} className="wrap-anywhere">{hint}</li>
            ))}
          </ul>
          {(report.platform_suggestions ?? []).length > 0 &&
            (onApply ? (
              <div className="mt-3 flex flex-wrap gap-2">
                {(report.platform_suggestions ?? []).map((s) => (
                  <button key={s.field} type="button" className={BUTTON} title={s.reason} onClick={() => onApply(s)}>
                    Use {s.label}
                  </button>
                ))}
              </div>
            ) : (
              <p className="mt-2 text-sm">The platform is the design's: edit the design to change it.</p>
            ))}
        </section>
      )}

      {report.recognised && report.recognised.length > 0 && (
        <section aria-label="What the pastes were taken for" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">What the pastes were taken for</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {report.recognised.map((r) => (
              <li key={r.name} className="wrap-anywhere">
                <span className="font-medium">{r.name}</span>: {labels[r.kind] ?? r.kind} ({r.confidence}: {r.reason})
              </li>
            ))}
          </ul>
        </section>
      )}

      {report.assignments && report.assignments.length > 0 && (
        <section aria-label="What each NFS line holds" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">What each NFS line holds</h2>
          <p className="mt-1 text-sm text-slate-700">Correct a guess and the audit runs again with your answer.</p>
          <ul className="mt-2 space-y-3">
            {report.assignments.map((a) => (
              <li key={`${a.file}-${a.line}`} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_14rem] sm:items-end">
                <div className="min-w-0 text-sm">
                  <span className="font-mono wrap-anywhere">{a.mount_point}</span>{" "}
                  <span className="text-slate-600">({a.file} line {a.line}, {a.device})</span>
                  <p className="text-slate-700">{a.role ? `${a.role.replace("_", " ")}: ` : "not recognised: "}{a.reason}</p>
                </div>
                <SelectField
                  label={`Holds (${a.mount_point})`}
                  name={`role-${a.line}`}
                  value={roles[a.mount_point] ?? ""}
                  onChange={(value) => onRole(a.mount_point, value as DeclaredRole | "")}
                  options={[
                    { value: "", label: "nasplan's guess" },
                    ...ROLE_CHOICES.map((r) => ({ value: r, label: r.replace("_", " ") })),
                  ]}
                />
              </li>
            ))}
          </ul>
        </section>
      )}

      {byFile(report).map(([file, findings]) => (
        <section key={file} aria-label={`Findings in ${file}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">{labels[file] ?? file}</h2>
          <ul className="mt-2 space-y-2">
            {byLine(findings).map((group) => (
              <li
                key={`${group.line ?? "file"}-${group.findings[0]?.rule ?? ""}`}
                className={`rounded border p-3 text-sm ${SEVERITY_STYLE[group.severity]}`}
                data-testid="audit-line"
              >
                <p className="font-semibold">
                  <span className="uppercase">{group.severity}</span> · {group.line ? `line ${group.line}` : "the whole file"}
                </p>
                <ul className="mt-1 space-y-1">
                  {group.findings.map((f, i) => (
                    <li key={`${f.rule}-${i}`} className="wrap-anywhere">
                      {group.findings.length > 1 && <span className="text-xs uppercase text-slate-600">{f.severity} </span>}
                      {f.message}{" "}
                      <Link to={`/rules/${f.rule}`} className="whitespace-nowrap text-blue-800 underline">
                        {f.rule}
                      </Link>
                    </li>
                  ))}
                </ul>
                {group.fix && (
                  <div className="mt-2">
                    <p className="text-xs font-medium text-slate-700">
                      Use instead of line {group.line ?? "(add it)"}
                      {group.appliesWith ? ` (needs: ${group.appliesWith})` : ""}:
                    </p>
                    <pre className="mt-1 whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-50">{group.fix}</pre>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}

      {Object.entries(report.corrected ?? {}).map(([file, text]) => (
        <section key={file} aria-label={`Corrected ${file}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">Corrected {file}</h2>
            <CopyButton text={text} label={`Copy the corrected ${file}`} />
          </div>
          <pre tabIndex={0} className="mt-2 max-h-80 overflow-auto whitespace-pre rounded bg-slate-900 p-2 text-xs text-slate-50">{text}</pre>
        </section>
      ))}

      {report.not_checked && report.not_checked.length > 0 && (
        <section aria-label="Not checked" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">Not checked</h2>
          <p className="mt-1 text-sm text-slate-700">The plan holds these, but nothing pasted shows them.</p>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {report.not_checked.map((line) => (
              <li key={line} className="wrap-anywhere">{line}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

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
    mutationFn: async ({ answers, platform }: { answers: Record<string, DeclaredRole>; platform: Platform }) =>
      unwrap(await api.POST("/api/v1/audits", { body: auditBody(platform, pastes, answers) })),
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

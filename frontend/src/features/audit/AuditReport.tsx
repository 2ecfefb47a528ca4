// One audit's answer: the summary, what the pastes were taken for, the role of each NFS line,
// the findings line by line, the corrected files and what was not checked.
import { Link } from "react-router";
import { CopyButton } from "../../components/CopyButton";
import { SelectField } from "../../components/Fields";
import {
  type AuditReport,
  type DeclaredRole,
  BASIS_WORDS,
  type PlatformSuggestion,
  ROLE_CHOICES,
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

export function Report({
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
              <li key={`${a.file}-${a.line}`} className="grid grid-cols-[minmax(0,1fr)] gap-2 sm:grid-cols-[minmax(0,1fr)_14rem] sm:items-end">
                <div className="min-w-0 text-sm">
                  <span className="font-mono wrap-anywhere">{a.mount_point}</span>{" "}
                  <span className="text-slate-600">({a.file} line {a.line}, {a.device})</span>
                  <p className="text-slate-700 wrap-anywhere">
                    <span
                      className={`mr-1 rounded px-1.5 py-0.5 text-xs font-medium ${a.basis === "inferred" || a.basis === "unknown" ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-800"}`}
                      data-testid="role-basis"
                    >
                      {BASIS_WORDS[a.basis]}
                    </span>
                    {a.role ? `${a.role.replace("_", " ")}: ` : "not recognised: "}
                    {a.reason}
                  </p>
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


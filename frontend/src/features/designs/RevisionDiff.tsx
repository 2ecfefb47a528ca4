// Two revisions of a design side by side: what the author changed, what each team does
// differently, and the lines that differ in the files each team runs.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { api, type Catalog, type Change, type Schemas, unwrap } from "../../api/client";
import { SelectField } from "../../components/Fields";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { mountEdits, plainReason, settingParts, type StoryContext } from "../plan/story";
import { EditChip, Rules, useStoryContext } from "../plan/TimeTravel";
import { useCatalog } from "../wizard/usePlan";
import { changeWords } from "./answerWords";
import { FileDiffs } from "./FileDiffs";
import { type DiffSection, diffSections } from "./revisionDiff";

type FilesDiff = Schemas["RevisionFilesDiff"];

const KIND_WORDS: Record<Change["kind"], string> = { added: "new", removed: "removed", changed: "changed" };

const KIND_STYLE: Record<Change["kind"], string> = {
  added: "bg-green-100 text-green-900",
  removed: "bg-red-100 text-red-900",
  changed: "bg-slate-200 text-slate-800",
};

function KindBadge({ kind }: { kind: Change["kind"] }) {
  return <span className={`mr-1.5 rounded px-1.5 py-0.5 text-xs font-medium ${KIND_STYLE[kind]}`}>{KIND_WORDS[kind]}</span>;
}

function Values({ before, after }: { before: string | null; after: string | null }) {
  if (before !== null && after !== null) {
    if (before.length + after.length > 80) {
      // Long values (a bottleneck sentence, a latency budget) read better one above the other.
      return (
        <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
          <dt className="text-slate-600">before</dt>
          <dd>{before}</dd>
          <dt className="text-slate-600">now</dt>
          <dd>{after}</dd>
        </dl>
      );
    }
    return (
      <>
        : <span className="text-red-900">{before}</span> → <span className="font-medium text-green-900">{after}</span>
      </>
    );
  }
  const value = after ?? before;
  return value ? <>: {value}</> : null;
}

function Why({ change, context }: { change: Change; context: StoryContext }) {
  // A platform answer changed because the author changed it: nothing more to say.
  if (change.item === "platform") return null;
  const reason = plainReason(change, context);
  return (
    <div className="flex min-w-0 flex-wrap items-baseline gap-x-3">
      {reason && <p className="min-w-0 text-xs text-slate-700">{reason}</p>}
      <Rules before={change.rules_before} after={change.rules_after} reasons={reason === change.reason ? [] : [change.reason]} />
    </div>
  );
}

function MountChange({ change, context }: { change: Change; context: StoryContext }) {
  const serves = change.mount?.serves.join(", ") ?? "";
  const mountPoint = change.mount?.mount_point ?? change.key;
  const edits = change.kind === "changed" ? mountEdits(change) : [];
  const exportOf = (value: string | null) => (value ?? "").split(" ")[0] ?? "";
  const moved = change.kind === "changed" && exportOf(change.before) !== exportOf(change.after);
  return (
    <li className="min-w-0 wrap-anywhere" data-testid="change-mount">
      <KindBadge kind={change.kind} />
      <span className="font-medium">
        Mount <code>{mountPoint}</code> ({serves})
      </span>
      {moved && <Values before={exportOf(change.before)} after={exportOf(change.after)} />}
      {change.kind !== "changed" && <Values before={change.before} after={change.after} />}
      {edits.length > 0 && (
        <ul aria-label={`Option changes on ${mountPoint}`} className="mt-1 flex min-w-0 flex-wrap gap-1">
          {edits.map((edit) => (
            <EditChip key={edit.kind === "swapped" ? `${edit.from}>${edit.to}` : `${edit.kind}${edit.token}`} edit={edit} />
          ))}
        </ul>
      )}
      <Why change={change} context={context} />
    </li>
  );
}

function ChangeLine({ change, catalog, context }: { change: Change; catalog: Catalog | undefined; context: StoryContext }) {
  if (change.item === "mount") return <MountChange change={change} context={context} />;
  const words = changeWords(change, catalog);
  const where = change.item === "setting" ? settingParts(change).where : "";
  return (
    <li className="min-w-0 wrap-anywhere" data-testid={`change-${change.item}`}>
      <KindBadge kind={change.kind} />
      {change.item === "setting" ? <code className="font-medium">{words.name}</code> : <span className="font-medium">{words.name}</span>}
      {where && <span className="text-xs text-slate-600"> ({where})</span>}
      {change.item === "finding" && change.kind !== "changed" ? (
        // A finding's value is its severity: "(warning)" after its message.
        <span className="text-slate-700"> ({words.after ?? words.before})</span>
      ) : (
        <Values before={words.before} after={words.after} />
      )}
      <Why change={change} context={context} />
    </li>
  );
}

function Section({ section, catalog, context }: { section: DiffSection; catalog: Catalog | undefined; context: StoryContext }) {
  const headingId = `diff-section-${section.id}`;
  return (
    <section aria-labelledby={headingId} className="min-w-0 border-t border-slate-200 pt-3" data-testid={`diff-${section.id}`}>
      <h3 id={headingId} className="text-base font-semibold">
        {section.title} <span className="text-sm font-normal text-slate-600">— {section.where}</span>
      </h3>
      {section.changes.length > 0 && (
        <ul aria-label={`${section.title}: changes`} className="mt-2 space-y-2 text-sm">
          {section.changes.map((change) => (
            <ChangeLine key={`${change.kind}-${change.item}-${change.key}`} change={change} catalog={catalog} context={context} />
          ))}
        </ul>
      )}
      {section.files.length > 0 && (
        <div className="mt-3 min-w-0">
          <h4 className="mb-1 text-sm font-semibold text-slate-800">Files that differ ({section.files.length})</h4>
          <FileDiffs files={section.files} label={`${section.title}: files that differ`} />
        </div>
      )}
    </section>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

interface BodyProps {
  from: string;
  to: string;
  changes: Change[];
  files: { data: FilesDiff | undefined; isPending: boolean; error: unknown };
}

function DiffBody({ from, to, changes, files }: BodyProps) {
  const catalog = useCatalog().data;
  const context = useStoryContext(changes.length > 0);
  const changedFiles = useMemo(() => files.data?.files ?? [], [files.data]);
  const sections = useMemo(() => diffSections(changes, changedFiles), [changes, changedFiles]);
  const stampOnly = files.data?.stamp_only.length ?? 0;
  const nothing = changes.length === 0 && files.data !== undefined && changedFiles.length === 0;
  return (
    <div role="region" aria-label="What changed" className="min-w-0 space-y-3">
      <p className="font-semibold">
        {nothing
          ? `Nothing changed from revision ${from} to revision ${to}.`
          : `Revision ${from} → revision ${to}: ${plural(changes.length, "change")}` +
            (files.data ? `, ${changedFiles.length === 1 ? "1 file differs" : `${changedFiles.length} files differ`}.` : ".")}
      </p>
      {sections.map((section) => (
        <Section key={section.id} section={section} catalog={catalog} context={context} />
      ))}
      {files.isPending && <Loading what="the differences in the files" />}
      {files.error ? <ErrorMessage error={files.error} title="Could not compare the files" /> : null}
      {files.data && (stampOnly > 0 || files.data.not_compared.length > 0) && (
        <p className="border-t border-slate-200 pt-3 text-xs text-slate-700">
          {stampOnly > 0 &&
            `${stampOnly === 1 ? "1 other file differs" : `${stampOnly} other files differ`} only in the revision number, link and review status in their header, so ${stampOnly === 1 ? "it is" : "they are"} not listed. `}
          {files.data.not_compared.length > 0 &&
            `Not compared: ${files.data.not_compared.join(", ")}, the bundle's index and checksums, which change with every revision and every approval.`}
        </p>
      )}
    </div>
  );
}

/** Choose two revisions and see what changed between them, by team, with the files' differences. */
export function RevisionDiff({ designId, numbers }: { designId: string; numbers: number[] }) {
  const [from, setFrom] = useState(String(numbers[numbers.length - 2] ?? 1));
  const [to, setTo] = useState(String(numbers[numbers.length - 1] ?? 1));
  const query = { params: { path: { design_id: designId }, query: { from: Number(from), to: Number(to) } } };
  const diff = useQuery({
    queryKey: ["design", designId, "diff", from, to],
    enabled: from !== to,
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}/diff", query)),
  });
  const files = useQuery({
    queryKey: ["design", designId, "diff", "files", from, to],
    enabled: from !== to,
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}/diff/files", query)),
  });
  const options = numbers.map((n) => ({ value: String(n), label: `Revision ${n}` }));
  return (
    <div className="min-w-0">
      <div className="grid grid-cols-2 gap-3 sm:max-w-md">
        <SelectField label="From" name="diff.from" value={from} onChange={setFrom} options={options} />
        <SelectField label="To" name="diff.to" value={to} onChange={setTo} options={options} />
      </div>
      <div className="mt-3 min-w-0">
        {from === to ? (
          <Empty>Choose two different revisions.</Empty>
        ) : diff.isPending ? (
          <Loading what="the differences" />
        ) : diff.isError ? (
          <ErrorMessage error={diff.error} title="Could not compare the revisions" />
        ) : (
          <DiffBody from={from} to={to} changes={diff.data.changes} files={{ data: files.data, isPending: files.isPending, error: files.error }} />
        )}
      </div>
    </div>
  );
}

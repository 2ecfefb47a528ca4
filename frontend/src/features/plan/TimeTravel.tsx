import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { api, type Change, unwrap } from "../../api/client";
import { FIRST_SOURCE, type NotYetReleased, today, unreleasedWords } from "./dateChanges";
import { ErrorMessage } from "../../components/States";
import { useExplanations } from "../../lib/explanations";
import { type Headline, type MountLine, type OptionEdit, plainReason, type StoryContext, type StoryGroup, tellStory } from "./story";
import { changeWords } from "../designs/answerWords";
import { useCatalog } from "../wizard/usePlan";

const QUICK = [
  { label: "2005", value: "2005-06-01" },
  { label: "2009", value: "2009-06-01" },
  { label: "2011", value: "2011-06-01" },
  { label: "Today", value: "" },
];

/** The "advice as of" control: choose a date, see what changed against the previous one. */
export function AsOfControl({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor="as-of" className="block text-sm font-medium text-slate-800">
          Advice as of
        </label>
        <input
          id="as-of"
          type="date"
          min={FIRST_SOURCE}
          max={today()}
          value={value || today()}
          onChange={(event) => onChange(event.target.value === today() ? "" : event.target.value)}
          className="mt-1 rounded border border-slate-400 bg-white px-2 py-1 text-sm"
        />
      </div>
      <div role="group" aria-label="Quick dates" className="flex gap-1">
        {QUICK.map((quick) => (
          <button
            key={quick.label}
            type="button"
            onClick={() => onChange(quick.value)}
            aria-pressed={value === quick.value}
            className={`rounded border px-2 py-1 text-xs ${
              value === quick.value ? "border-blue-800 bg-blue-800 text-white" : "border-slate-300 bg-white hover:bg-slate-100"
            }`}
          >
            {quick.label}
          </button>
        ))}
      </div>
    </div>
  );
}

const KIND_STYLE: Record<Change["kind"], string> = {
  added: "bg-green-100 text-green-900",
  removed: "bg-red-100 text-red-900",
  changed: "bg-slate-200 text-slate-800",
};

/** How each kind of item is named in the list (the key follows it). */
const ITEM_LABEL: Record<Change["item"], string> = {
  plan: "plan",
  platform: "platform",
  volume: "volume",
  mount: "mount",
  setting: "setting",
  finding: "finding",
  check: "check",
  expectation: "expectation",
};

function shown(value: string | null): string {
  return value === null || value === "" ? "(none)" : value;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** The rule ids behind an item and the reason in full, folded away. */
export function Rules({ before, after, reasons }: { before: string[]; after: string[]; reasons: string[] }) {
  const said = unique(reasons).filter((reason) => reason !== "");
  if (before.length + after.length + said.length === 0) return null;
  const dropped = before.filter((id) => !after.includes(id));
  const kept = after.filter((id) => before.includes(id));
  const added = after.filter((id) => !before.includes(id));
  return (
    <details className="min-w-0 text-xs text-slate-700 open:basis-full">
      <summary className="cursor-pointer select-none text-slate-600 hover:text-slate-900">Rules</summary>
      <div className="mt-1 space-y-0.5 rounded bg-white/70 p-2">
        {dropped.length > 0 && (
          <p>
            before: <code className="wrap-anywhere">{dropped.join(", ")}</code>
          </p>
        )}
        {added.length > 0 && (
          <p>
            now: <code className="wrap-anywhere">{added.join(", ")}</code>
          </p>
        )}
        {kept.length > 0 && (
          <p>
            unchanged: <code className="wrap-anywhere">{kept.join(", ")}</code>
          </p>
        )}
        {said.map((reason) => (
          <p key={reason} className="wrap-anywhere">
            {reason}
          </p>
        ))}
      </div>
    </details>
  );
}

/** One option edit as a chip: "intr → nointr", "+suid", "−actimeo=0". */
export function EditChip({ edit }: { edit: OptionEdit }) {
  const chip = "inline-block max-w-full rounded px-1.5 py-0.5 font-mono text-xs wrap-anywhere";
  if (edit.kind === "swapped") {
    // The signs stay in the text (copy, assistive tech) but not on screen: the arrow says it.
    return (
      <li className={`${chip} bg-amber-100 text-slate-900`}>
        <del className="text-red-900 no-underline">
          <span className="sr-only">removed option </span>
          <span className="sr-only">−</span>
          {edit.from}
        </del>
        <span aria-hidden="true"> → </span>
        <ins className="font-semibold text-green-900 no-underline">
          <span className="sr-only">, added option </span>
          <span className="sr-only">+</span>
          {edit.to}
        </ins>
      </li>
    );
  }
  if (edit.kind === "added") {
    return (
      <li className={`${chip} bg-green-100 text-green-900`}>
        <ins className="no-underline">
          <span className="sr-only">added option </span>
          <span aria-hidden="true">+</span>
          {edit.token}
        </ins>
      </li>
    );
  }
  return (
    <li className={`${chip} bg-red-100 text-red-900`}>
      <del className="no-underline">
        <span className="sr-only">removed option </span>
        <span aria-hidden="true">−</span>
        {edit.token}
      </del>
    </li>
  );
}

function HeadlineItem({ headline }: { headline: Headline }) {
  const single = headline.changes.length === 1 ? headline.changes[0] : undefined;
  return (
    <li className="min-w-0 rounded border-l-4 border-amber-500 bg-white px-3 py-2 shadow-sm" data-testid="reversal">
      <p className="text-base font-semibold wrap-anywhere" data-testid={headline.kind === "setting" && single ? `change-${single.item}` : undefined}>
        {headline.kind === "setting" && (
          <>
            <code>{headline.subject}</code>{" "}
          </>
        )}
        <code className="text-red-900">{headline.before}</code> → <code className="text-green-900">{headline.after}</code>
        {headline.since && <span className="font-normal text-slate-800">, {headline.since}</span>}
      </p>
      {headline.where && <p className="text-xs text-slate-600 wrap-anywhere">{headline.where}</p>}
      {headline.why && <p className="mt-1 text-sm text-slate-800">{headline.why}</p>}
      <div className="mt-1 flex flex-wrap gap-x-3">
        <Rules before={headline.rulesBefore} after={headline.rulesAfter} reasons={headline.changes.map((change) => change.reason)} />
      </div>
    </li>
  );
}

function MountItem({ line }: { line: MountLine }) {
  const { change } = line;
  return (
    <li className="min-w-0 wrap-anywhere" data-testid="change-mount">
      <span className="font-medium">mount</span> <code className="text-xs">{change.key}</code>
      {line.exportBefore !== line.exportAfter && (
        <>
          : <code className="text-xs">{line.exportBefore}</code> → <code className="text-xs">{line.exportAfter}</code>
        </>
      )}
      {line.edits.length > 0 && (
        <ul aria-label={`Option changes on ${change.key}`} className="mt-1 flex min-w-0 flex-wrap gap-1">
          {line.edits.map((edit) => (
            <EditChip key={edit.kind === "swapped" ? `${edit.from}>${edit.to}` : `${edit.kind}${edit.token}`} edit={edit} />
          ))}
        </ul>
      )}
      <div className="mt-0.5 flex min-w-0 flex-wrap gap-x-3">
        <details className="min-w-0 text-xs text-slate-700 open:basis-full">
          <summary className="cursor-pointer select-none text-slate-600 hover:text-slate-900">Whole lines</summary>
          <p className="wrap-anywhere">
            before: <code>{shown(change.before)}</code>
          </p>
          <p className="wrap-anywhere">
            after: <code>{shown(change.after)}</code>
          </p>
        </details>
        <Rules before={change.rules_before} after={change.rules_after} reasons={[change.reason]} />
      </div>
    </li>
  );
}

function ChangeKey({ change }: { change: Change }) {
  // A finding's key is "RULE-ID: message": the message reads as text, the id goes with the rules.
  if (change.item === "finding") return <>{change.finding?.message ?? change.key}</>;
  return <code className="text-xs">{change.key}</code>;
}

function ChangeValue({ change }: { change: Change }) {
  if (change.kind === "changed" && (change.before ?? "").length + (change.after ?? "").length > 80) {
    // Long values (a bottleneck sentence, a latency budget) read better one above the other.
    return (
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
        <dt className="text-slate-600">before</dt>
        <dd>{shown(change.before)}</dd>
        <dt className="text-slate-600">after</dt>
        <dd>{shown(change.after)}</dd>
      </dl>
    );
  }
  if (change.kind === "changed") {
    return (
      <>
        : <code className="text-xs">{shown(change.before)}</code> → <code className="text-xs">{shown(change.after)}</code>
      </>
    );
  }
  const value = change.kind === "added" ? change.after : change.before;
  if (value === null) return null;
  // A finding's value is its severity; other items show what was added or removed.
  return change.item === "finding" ? <> ({value})</> : <>: <code className="text-xs">{shown(value)}</code></>;
}

function ChangeItem({ change, context }: { change: Change; context: StoryContext }) {
  const catalog = useCatalog();
  // Answers and expectations by the names and units a reader knows, not the plan's keys.
  const worded = change.item === "platform" || change.item === "expectation" ? changeWords(change, catalog.data) : null;
  const reason = plainReason(change, context);
  const findingRule = change.finding?.rule;
  const after = findingRule && !change.rules_after.includes(findingRule) && change.kind !== "removed" ? [...change.rules_after, findingRule] : change.rules_after;
  const before = findingRule && !change.rules_before.includes(findingRule) && change.kind === "removed" ? [...change.rules_before, findingRule] : change.rules_before;
  return (
    <li className="min-w-0 wrap-anywhere" data-testid={`change-${change.item}`}>
      <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${KIND_STYLE[change.kind]}`}>{change.kind}</span>{" "}
      {worded ? (
        <span className="font-medium">{worded.name}</span>
      ) : (
        <>
          <span className="font-medium">{ITEM_LABEL[change.item]}</span> <ChangeKey change={change} />
        </>
      )}
      <ChangeValue change={worded ? { ...change, before: worded.before, after: worded.after } : change} />
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-3">
        {reason && <p className="min-w-0 text-xs text-slate-700">{reason}</p>}
        <Rules before={before} after={after} reasons={reason === change.reason ? [] : [change.reason]} />
      </div>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-3 min-w-0">
      <p className="text-xs font-semibold uppercase tracking-wide text-amber-900">{title}</p>
      {children}
    </div>
  );
}

function Group({ group, context }: { group: StoryGroup; context: StoryContext }) {
  return (
    <Section title={`${group.title} (${group.changes.length})`}>
      <ul aria-label={group.title} className="mt-1 space-y-1.5">
        {group.changes.map((change) => (
          <ChangeItem key={`${change.kind}-${change.item}-${change.key}`} change={change} context={context} />
        ))}
      </ul>
    </Section>
  );
}

const NO_CONTEXT: StoryContext = {};

interface ChangesProps {
  changes: Change[] | undefined;
  /** The earlier date ("" is today): the story is told from it forward, whichever was chosen last. */
  from: string;
  to: string;
  error: unknown;
  /** The platform's releases that did not exist yet on the earlier date. */
  notYetReleased?: NotYetReleased[] | undefined;
}

/** The changes as a story (no fetching): reversed advice first, then mount options token by token, then the rest. */
export function ChangesStory({ changes, from, to, error, notYetReleased = [], context = NO_CONTEXT }: ChangesProps & { context?: StoryContext }) {
  const story = useMemo(() => (changes ? tellStory(changes, context) : null), [changes, context]);
  if (error) return <ErrorMessage error={error} title="Could not compare the dates" />;
  if (!changes || !story) return null;
  return (
    <div role="region" aria-label="What changed" className="min-w-0 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-semibold">
        {changes.length === 0
          ? `Nothing changed between ${from || "today"} and ${to || "today"}.`
          : `${changes.length} change(s) from ${from || "today"} to ${to || "today"} (highlighted below):`}
      </p>
      {notYetReleased.length > 0 && (
        <p className="mt-1 text-amber-950" data-testid="not-yet-released">
          On {from || "today"}, {unreleasedWords(notYetReleased)} did not exist yet: the plan for that date describes a platform nobody could
          have built then.
        </p>
      )}
      {story.headlines.length > 0 && (
        <Section title="Advice reversed">
          <ul aria-label="Advice reversed" className="mt-1 space-y-2">
            {story.headlines.map((headline) => (
              <HeadlineItem key={`${headline.kind}-${headline.subject}-${headline.before}-${headline.after}-${headline.where}`} headline={headline} />
            ))}
          </ul>
        </Section>
      )}
      {story.mounts.length > 0 && (
        <Section title={`Mount options (${story.mounts.length})`}>
          <ul aria-label="Mount options" className="mt-1 space-y-1.5">
            {story.mounts.map((line) => (
              <MountItem key={line.change.key} line={line} />
            ))}
          </ul>
        </Section>
      )}
      {story.groups.map((group) => (
        <Group key={group.item} group={group} context={context} />
      ))}
    </div>
  );
}

/** Source titles and dates for the story's "since …", fetched once per knowledge base. */
export function useStoryContext(enabled: boolean): StoryContext {
  const explanations = useExplanations(enabled);
  const knowledge = useQuery({
    queryKey: ["knowledge", "all"],
    enabled,
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET("/api/v1/knowledge")),
  });
  const rules = explanations.data?.rules;
  const sources = knowledge.data?.sources;
  return useMemo(() => {
    const sourceNames: Record<string, string> = {};
    for (const source of sources ?? []) if (source.number) sourceNames[source.id] = source.number;
    return { rules, sourceNames };
  }, [rules, sources]);
}

export function ChangesList({ cause = "date", ...props }: ChangesProps & { cause?: StoryContext["cause"] }) {
  const loaded = useStoryContext((props.changes?.length ?? 0) > 0);
  const context = useMemo(() => ({ ...loaded, cause }), [loaded, cause]);
  return <ChangesStory {...props} context={context} />;
}

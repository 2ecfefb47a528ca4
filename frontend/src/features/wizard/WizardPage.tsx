import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import type { Platform } from "../../api/client";
import { ErrorMessage, Loading } from "../../components/States";
import { type Draft, type Section, adjustDependent, decodeDraft, encodeDraft, toPlatform } from "../../lib/draft";
import { readCapabilities } from "../../lib/fragment";
import { useDebounced } from "../../lib/useDebounced";
import { STEP_OF_SECTION, splitErrors, validateDraft, withoutAnswers } from "../../lib/validation";
import { PlanPanel } from "../plan/PlanPanel";
import { HandoverStep } from "./HandoverStep";
import { ReviewStep } from "./ReviewStep";
import { HostStep, LayoutStep, NetworkStep, OracleStep, STEPS, type StepProps } from "./steps";
import { StorageStep } from "./StorageStep";
import { useCatalog, usePlan } from "./usePlan";
import { PresetPicker } from "../../components/PresetPicker";
import { PlanSummary } from "./PlanSummary";

const STEP_VIEWS = [HostStep, NetworkStep, OracleStep, StorageStep, LayoutStep, HandoverStep];

export function WizardPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  // The URL is the record of the answers (reload, back/forward, sharing); the state mirrors it so
  // inputs update at once instead of waiting for the router's transition.
  const [draft, setDraft] = useState(() => decodeDraft(params));
  const [seenSearch, setSeenSearch] = useState(location.search);
  // URLs this page wrote itself: while typing fast they arrive late and must not roll the
  // answers back; any other URL (back/forward, a pasted link) replaces the answers.
  const [written] = useState(() => new Set<string>());
  if (seenSearch !== location.search) {
    setSeenSearch(location.search);
    if (written.has(location.search)) written.delete(location.search);
    else setDraft(decodeDraft(params));
  }
  const step = Math.min(Math.max(Number(params.get("step") ?? "0") || 0, 0), STEPS.length - 1);
  const editing = params.get("design");
  const base = params.get("base");
  const catalog = useCatalog();
  // Moving to another step puts the keyboard on its first field (not on a first visit).
  const formRef = useRef<HTMLFormElement>(null);
  const focusStep = useRef<number | null>(null);
  useEffect(() => {
    if (focusStep.current !== step) return;
    focusStep.current = null;
    formRef.current?.querySelector<HTMLElement>("input, select, textarea")?.focus();
  }, [step]);

  // Steps the user has moved on from, and answers changed: a missing answer is only flagged
  // once the user has been there (a wrong one always is).
  const [visited] = useState(() => new Set<number>());
  const [changed] = useState(() => new Set<string>());
  const filerReleaseRequired = catalog.data?.filers[draft.filer.vendor]?.release_required ?? true;
  const errors = validateDraft(draft, filerReleaseRequired);
  const { blocking, leftOut } = splitErrors(errors);
  const valid = Object.keys(blocking).length === 0;
  const platform: Platform | null = valid ? toPlatform(withoutAnswers(draft, Object.keys(leftOut))) : null;
  const shownErrors = Object.fromEntries(
    Object.entries(errors).filter(([key]) => {
      const [section, field] = key.split(".", 2) as [Section, string];
      const value = (draft[section] as unknown as Record<string, unknown>)[field];
      return value !== "" || changed.has(key) || visited.has(STEP_OF_SECTION[section]) || step === STEPS.length - 1;
    }),
  );
  const debounced = useDebounced(platform ? JSON.stringify(platform) : null, 60);
  const plan = usePlan(debounced ? (JSON.parse(debounced) as Platform) : null);

  function go(next: Draft, nextStep: number, push: boolean) {
    const extra: Record<string, string> = { step: String(nextStep) };
    if (editing) extra.design = editing;
    if (base) extra.base = base;
    const search = `?${encodeDraft(next, extra).toString()}`;
    if (nextStep !== step) {
      focusStep.current = nextStep;
      visited.add(step);
    }
    setDraft(next);
    written.add(search);
    navigate({ search, hash: location.hash }, { replace: !push });
  }

  const set: StepProps["set"] = (section, field, value) => {
    if (!catalog.data) return;
    const next = structuredClone(draft);
    (next[section] as unknown as Record<string, string | boolean>)[field] = value;
    changed.add(`${section}.${field}`);
    go(adjustDependent(next, catalog.data, section, field), step, false);
  };

  if (catalog.isPending) return <Loading what="choices" />;
  if (catalog.isError) return <ErrorMessage error={catalog.error} title="Could not load the choices" />;

  const StepView = STEP_VIEWS[step];
  const stepsWithErrors = new Set(
    Object.keys(shownErrors).map((key) => STEP_OF_SECTION[key.split(".")[0] as Section]),
  );

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <section aria-labelledby="wizard-title" className="min-w-0">
        <h1 id="wizard-title" className="text-2xl font-semibold tracking-tight">
          {editing ? "Edit design" : "Describe the platform"}
        </h1>
        {!editing && (
          <p className="mt-2 text-sm text-slate-700">
            nasplan plans an Oracle database on NFS storage: the volumes and mounts, every setting with
            its source, the files each team runs and a runbook. Start from a preset, or answer the steps;
            the plan follows each answer.
          </p>
        )}
        {editing && !readCapabilities(location.hash).edit && (
          <p className="mt-2 text-sm text-red-800">
            This edit link has no edit token: open the design's edit link to save a revision.
          </p>
        )}
        <PresetPicker catalog={catalog.data} id="preset" current={draft} onPick={(picked) => go({ ...picked, as_of: draft.as_of }, 0, true)} />

        <nav aria-label="Wizard steps" className="mt-5">
          <ol className="flex flex-wrap gap-1">
            {STEPS.map((name, index) => (
              <li key={name}>
                <button
                  type="button"
                  onClick={() => go(draft, index, true)}
                  aria-current={index === step ? "step" : undefined}
                  className={`rounded-full border px-3 py-1 text-xs font-medium ${
                    index === step
                      ? "border-blue-800 bg-blue-800 text-white"
                      : stepsWithErrors.has(index)
                        ? "border-red-600 bg-red-50 text-red-800"
                        : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
                  }`}
                >
                  {index + 1}. {name}
                  {stepsWithErrors.has(index) && <span className="sr-only"> (needs a fix)</span>}
                </button>
              </li>
            ))}
          </ol>
          <div className="mt-2 h-1.5 rounded bg-slate-200" aria-hidden="true">
            <div className="h-1.5 rounded bg-blue-700" style={{ width: `${((step + 1) / STEPS.length) * 100}%` }} />
          </div>
          <p className="sr-only" aria-live="polite">
            Step {step + 1} of {STEPS.length}: {STEPS[step]}
          </p>
        </nav>

        <form
          ref={formRef}
          className="mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          onSubmit={(event) => {
            event.preventDefault();
            if (step < STEPS.length - 1) go(draft, step + 1, true);
          }}
          noValidate
        >
          <h2 className="mb-3 text-lg font-semibold">{STEPS[step]}</h2>
          {StepView ? (
            <StepView draft={draft} catalog={catalog.data} errors={shownErrors} set={set} />
          ) : (
            <ReviewStep
              draft={draft}
              catalog={catalog.data}
              errors={blocking}
              platform={platform}
              editing={editing}
              base={base ? Number(base) : null}
            />
          )}
          <div className="mt-5 flex justify-between">
            <button
              type="button"
              disabled={step === 0}
              onClick={() => go(draft, step - 1, true)}
              className="rounded border border-slate-400 bg-white px-4 py-2 text-sm font-medium disabled:opacity-40"
            >
              Back
            </button>
            {step < STEPS.length - 1 && (
              <button type="submit" className="rounded bg-blue-800 px-4 py-2 text-sm font-medium text-white hover:bg-blue-900">
                Next
              </button>
            )}
          </div>
        </form>
        <Link
          to={`/compare?${encodeDraft(draft).toString()}`}
          className="mt-3 inline-block text-sm font-medium text-blue-800 underline"
        >
          What if… compare changes to these answers
        </Link>
        <PlanSummary plan={plan.data} pending={plan.isFetching} blocking={blocking} leftOut={leftOut} />
      </section>

      <section id="plan" tabIndex={-1} aria-label="Plan" className="min-w-0 scroll-mt-4 focus:outline-none">
        <PlanPanel
          plan={plan.data}
          pending={plan.isFetching}
          error={plan.error}
          stale={!valid}
          platform={platform}
          asOf={draft.as_of}
          onAsOf={(value) => go({ ...draft, as_of: value }, step, false)}
        />
      </section>
    </div>
  );
}

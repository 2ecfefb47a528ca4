// /compare: plan a base platform and up to three what-if variants of it side by side.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, ApiError, type Catalog, type Schemas, unwrap } from "../../api/client";
import { CheckField, SelectField, TextField } from "../../components/Fields";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { type Draft, draftFromPlatform, encodeDraft } from "../../lib/draft";
import { useDebounced } from "../../lib/useDebounced";
import { validateDraft } from "../../lib/validation";
import { PlanBody } from "../plan/PlanPanel";
import { useCatalog } from "../wizard/usePlan";
import {
  type CompareState,
  FIELD_LABELS,
  MAX_VARIANTS,
  type Refusal,
  type Variant,
  applyPatch,
  autoLabel,
  decodeCompare,
  draftValue,
  effectivePatch,
  encodeCompare,
  quickWhatIfs,
  refusalsOf,
  setAnswer,
  variantErrors,
  variantLabel,
  whatIfBody,
} from "./model";
import { VariantResult } from "./Results";
import { PresetPicker } from "../../components/PresetPicker";

type WhatIfResponse = Schemas["WhatIfResponse"];

/** The answers the variant form offers; others may still arrive in a link. */
const LEVERS = [
  "oracle.dnfs",
  "network.jumbo_frames",
  "network.nic_gbps",
  "network.nic_count",
  "oracle.workload",
  "oracle.version",
  "filer.os_version",
];

function shownValue(draft: Draft, key: string): string {
  const value = draftValue(draft, key);
  if (typeof value === "boolean") return value ? "on" : "off";
  return value === undefined || value === "" ? "(none)" : value;
}

function BaseSummary({ draft, catalog }: { draft: Draft; catalog: Catalog }) {
  const os = catalog.os[draft.host.os];
  const release = os?.releases.find((r) => r.id === draft.host.os_version)?.label ?? draft.host.os_version;
  const rows: [string, string][] = [
    ["Host", `${release}, ${draft.host.arch}`],
    ["Network", `${draft.network.nic_count} × ${draft.network.nic_gbps} GbE, ${draft.network.jumbo_frames ? "jumbo frames" : "MTU 1500"}`],
    [
      "Oracle",
      `${draft.oracle.version}, ${draft.oracle.dnfs ? "Direct NFS" : "kernel NFS"} v${draft.oracle.nfs_version}, ${draft.oracle.workload.toUpperCase()}`,
    ],
    ["Storage", `${catalog.filers[draft.filer.vendor]?.label ?? draft.filer.vendor} ${draft.filer.model} ${draft.filer.os_version}`.trim()],
  ];
  return (
    <dl className="grid grid-cols-[5rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm" data-testid="base-summary">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface VariantCardProps {
  index: number;
  base: Draft;
  variant: Variant;
  catalog: Catalog;
  errors: Record<string, string>;
  refusals: Refusal[];
  result: Schemas["WhatIfVariantOut"] | undefined;
  pending: boolean;
  /** The request failed for another reason (another variant refused, the server down). */
  blocked: boolean;
  showPlan: boolean;
  onShowPlan: (show: boolean) => void;
  onChange: (variant: Variant) => void;
  onRemove: () => void;
}

function VariantCard({ index, base, variant, catalog, errors, refusals, result, pending, blocked, showPlan, onShowPlan, onChange, onRemove }: VariantCardProps) {
  const draft = applyPatch(base, variant.patch);
  const changed = effectivePatch(base, variant.patch);
  const label = variantLabel(base, variant);
  const refused = Object.fromEntries(refusals.filter((r) => r.key).map((r) => [r.key, r.message]));
  const unplaced = refusals.filter((r) => !r.key);
  const problem = (key: string) => errors[key] ?? refused[key];
  const hint = (key: string) => (key in changed ? `Changed; base: ${shownValue(base, key)}` : undefined);
  const set = (key: string, value: string | boolean) => onChange({ ...variant, patch: setAnswer(base, variant.patch, key, value) });
  const headingId = `variant-${index + 1}-title`;
  const vendor = catalog.filers[base.filer.vendor];
  const known = (vendor?.families ?? []).flatMap((f) => f.known);
  const speeds = catalog.network.nic_speeds.map((s) => ({ value: String(s.gbps), label: s.label }));
  if (!speeds.some((s) => s.value === draft.network.nic_gbps)) {
    speeds.push({ value: draft.network.nic_gbps, label: `${draft.network.nic_gbps} Gb/s (not a speed nasplan knows)` });
  }
  const others = Object.keys(changed).filter((key) => !LEVERS.includes(key));
  const testId = (key: string) => `var${index + 1}.${key}`;
  const changedSet = new Set((result?.changes ?? []).map((c) => c.key));

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`variant-${index + 1}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="min-w-0 text-lg font-semibold wrap-anywhere">
          Variant {index + 1}: {label}
        </h2>
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove variant ${index + 1}`}
          className="rounded border border-slate-400 bg-white px-3 py-1 text-sm hover:bg-slate-100"
        >
          Remove
        </button>
      </div>
      <fieldset className="mt-3">
        <legend className="text-sm font-medium text-slate-700">Answers that differ from the base</legend>
        <div className="mt-1 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2 2xl:grid-cols-4">
          <CheckField
            label="Direct NFS (dNFS)"
            name={testId("oracle.dnfs")}
            checked={draft.oracle.dnfs}
            hint={hint("oracle.dnfs")}
            onChange={(value) => set("oracle.dnfs", value)}
          />
          <CheckField
            label="Jumbo frames (MTU 9000)"
            name={testId("network.jumbo_frames")}
            checked={draft.network.jumbo_frames}
            hint={hint("network.jumbo_frames")}
            onChange={(value) => set("network.jumbo_frames", value)}
          />
          <SelectField
            label="NIC speed"
            name={testId("network.nic_gbps")}
            value={draft.network.nic_gbps}
            error={problem("network.nic_gbps")}
            hint={hint("network.nic_gbps")}
            onChange={(value) => set("network.nic_gbps", value)}
            options={speeds}
          />
          <TextField
            label="Storage NICs per host"
            name={testId("network.nic_count")}
            inputMode="numeric"
            value={draft.network.nic_count}
            error={problem("network.nic_count")}
            hint={hint("network.nic_count")}
            onChange={(value) => set("network.nic_count", value)}
          />
          <SelectField
            label="Workload"
            name={testId("oracle.workload")}
            value={draft.oracle.workload}
            error={problem("oracle.workload")}
            hint={hint("oracle.workload")}
            onChange={(value) => set("oracle.workload", value)}
            options={catalog.workloads.map((w) => ({ value: w.id, label: w.label }))}
          />
          <TextField
            label="Oracle release"
            name={testId("oracle.version")}
            value={draft.oracle.version}
            list={catalog.oracle.examples}
            error={problem("oracle.version")}
            hint={hint("oracle.version")}
            onChange={(value) => set("oracle.version", value)}
          />
          <TextField
            label="Filer software release"
            name={testId("filer.os_version")}
            value={draft.filer.os_version}
            list={known}
            error={problem("filer.os_version")}
            hint={hint("filer.os_version")}
            onChange={(value) => set("filer.os_version", value)}
          />
          <TextField
            label="Name of the variant"
            name={testId("label")}
            value={variant.label}
            placeholder={autoLabel(base, variant.patch)}
            error={problem("label")}
            hint="Optional; named after its changes when empty."
            onChange={(value) => onChange({ ...variant, label: value })}
          />
        </div>
      </fieldset>
      {others.length > 0 && (
        <div className="mt-3 text-sm">
          <p className="font-medium">Also changed by the link:</p>
          <ul className="mt-1 space-y-1">
            {others.map((key) => (
              <li key={key} className="flex flex-wrap items-center gap-2">
                <span className="wrap-anywhere">
                  {FIELD_LABELS[key] ?? key}: {shownValue(base, key)} → {shownValue(draft, key)}
                </span>
                {problem(key) && <span className="text-xs text-red-700">{problem(key)}</span>}
                <button
                  type="button"
                  className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
                  onClick={() => onChange({ ...variant, patch: setAnswer(base, variant.patch, key, draftValue(base, key) ?? "") })}
                >
                  Undo <span className="sr-only">{FIELD_LABELS[key] ?? key}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {unplaced.length > 0 && (
        <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">The server refused this variant</p>
          <ul className="mt-1 list-disc pl-5">
            {unplaced.map((r) => (
              <li key={r.message}>One of its answers {r.message}.</li>
            ))}
          </ul>
        </div>
      )}
      {refusals.some((r) => r.key) && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          The server refused {refusals.filter((r) => r.key).map((r) => `“${FIELD_LABELS[r.key] ?? "an answer"}” (${r.message})`).join(", ")}: fix the
          highlighted answer to compare this variant.
        </p>
      )}
      <div className="mt-4">
        {Object.keys(changed).length === 0 ? (
          <Empty>Change at least one answer to compare this variant with the base.</Empty>
        ) : Object.keys(errors).length > 0 ? (
          <p role="status" className="text-sm text-red-800">
            Fix the highlighted answers to compare this variant; nothing is sent until they are valid.
          </p>
        ) : refusals.length > 0 ? null : blocked ? (
          <p className="text-sm text-slate-700">Not compared yet: the request failed (see above or the other variants).</p>
        ) : result ? (
          <div className={pending ? "opacity-60" : undefined}>
            <VariantResult label={label} result={result} />
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="button"
                aria-expanded={showPlan}
                onClick={() => onShowPlan(!showPlan)}
                className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
              >
                {showPlan ? "Hide this variant's plan" : "Show this variant's plan"}
              </button>
              <Link
                to={`/?${encodeDraft(draft).toString()}`}
                className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
              >
                Open this variant in the wizard
              </Link>
            </div>
            {showPlan && (
              <div className="mt-3 space-y-4">
                <PlanBody plan={result.plan} changed={changedSet} />
              </div>
            )}
          </div>
        ) : (
          <Loading what="the comparison" />
        )}
      </div>
    </section>
  );
}

export default function ComparePage() {
  const location = useLocation();
  const navigate = useNavigate();
  // As in the wizard: the URL is the record, the state mirrors it so inputs update at once.
  const [state, setState] = useState<CompareState>(() => decodeCompare(location.search));
  const [seenSearch, setSeenSearch] = useState(location.search);
  const [written] = useState(() => new Set<string>());
  if (seenSearch !== location.search) {
    setSeenSearch(location.search);
    if (written.has(location.search)) written.delete(location.search);
    else setState(decodeCompare(location.search));
  }
  const [planShown, setPlanShown] = useState<number | null>(null);
  const catalog = useCatalog();
  const design = useQuery({
    queryKey: ["design", state.design],
    enabled: state.design !== null,
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/designs/{design_id}", { params: { path: { design_id: state.design ?? "" } } })),
  });
  const base: Draft | null = useMemo(() => {
    if (state.design === null) return state.base;
    return design.data ? draftFromPlatform(design.data.latest.platform) : null;
  }, [state.design, state.base, design.data]);

  const releaseRequired = (base && catalog.data?.filers[base.filer.vendor]?.release_required) ?? true;
  const baseErrors = base ? validateDraft(base, releaseRequired) : {};
  const baseValid = base !== null && Object.keys(baseErrors).length === 0;
  const checked = state.variants.map((variant, index) => ({
    variant,
    index,
    errors: base ? variantErrors(base, variant, releaseRequired) : {},
    changes: base ? Object.keys(effectivePatch(base, variant.patch)).length : 0,
  }));
  const ready = checked.filter((v) => v.changes > 0 && Object.keys(v.errors).length === 0);
  const request = baseValid && base ? whatIfBody(base, ready) : null;
  const key = useDebounced(request ? JSON.stringify(request) : null, 250);
  const whatIf = useQuery({
    queryKey: ["what-if", key],
    enabled: key !== null,
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    queryFn: async ({ signal }) => {
      const { body, sent } = JSON.parse(key ?? "null") as NonNullable<typeof request>;
      const data: WhatIfResponse = unwrap(await api.POST("/api/v1/plans/what-if", { body, signal }));
      return { data, sent };
    },
  });
  const sentNow: number[] = key ? (JSON.parse(key) as NonNullable<typeof request>).sent : [];
  const refusals = whatIf.error instanceof ApiError && whatIf.error.status === 422 ? refusalsOf(whatIf.error) : [];
  const baseRefusals = refusals.filter((r) => r.variant === null);
  const otherError = whatIf.error && refusals.length === 0 ? whatIf.error : null;

  function update(next: CompareState, push = false) {
    const search = `?${encodeCompare(next).toString()}`;
    setState(next);
    written.add(search);
    navigate({ search }, { replace: !push });
  }

  if (catalog.isPending) return <Loading what="choices" />;
  if (catalog.isError) return <ErrorMessage error={catalog.error} title="Could not load the choices" />;
  if (state.design !== null && design.isPending) return <Loading what="the design" />;
  if (state.design !== null && design.isError) return <ErrorMessage error={design.error} title="Could not open this design" />;
  if (!base) return <Loading what="the base" />;

  const quick = quickWhatIfs(base, catalog.data);
  const full = state.variants.length >= MAX_VARIANTS;

  function addVariant(variant: Variant) {
    // An untouched, unnamed variant is replaced rather than kept empty next to the new one.
    const kept = state.variants.filter((v) => v.label.trim() !== "" || Object.keys(v.patch).length > 0);
    update({ ...state, variants: [...kept, variant].slice(0, MAX_VARIANTS) }, true);
  }

  function resultFor(index: number) {
    const data = whatIf.data;
    if (!data) return undefined;
    const at = data.sent.indexOf(index);
    return at >= 0 ? data.data.variants[at] : undefined;
  }

  const designName = state.design !== null ? design.data?.name : null;

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <section aria-labelledby="compare-title" className="min-w-0 space-y-4">
        <div>
          <h1 id="compare-title" className="text-2xl font-semibold tracking-tight">
            What if…
          </h1>
          <p className="mt-1 text-sm text-slate-700">
            Change a few answers and see what the plan, nasplan's model figures and the sources' measurements say about it.
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="mb-2 text-lg font-semibold">Base platform</h2>
          {designName && state.design && (
            <p className="mb-2 text-sm wrap-anywhere">
              From the design{" "}
              <Link className="text-blue-800 underline" to={`/d/${state.design}`}>
                {designName}
              </Link>
              , revision {design.data?.latest.number} (latest).
            </p>
          )}
          <BaseSummary draft={base} catalog={catalog.data} />
          <PresetPicker
            catalog={catalog.data}
            id="compare-preset"
            onPick={(picked) => update({ ...state, design: null, base: { ...picked, as_of: base.as_of } }, true)}
          />
          <Link to={`/?${encodeDraft(base).toString()}`} className="mt-3 inline-block text-sm font-medium text-blue-800 underline">
            Edit the base in the wizard
          </Link>
          {(!baseValid || baseRefusals.length > 0) && (
            <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-semibold">The base answers need a fix before anything can be compared:</p>
              <ul className="mt-1 list-disc pl-5">
                {Object.entries(baseErrors).map(([field, message]) => (
                  <li key={field}>
                    {FIELD_LABELS[field] ?? "An answer"}: {message}
                  </li>
                ))}
                {baseRefusals.map((r) => (
                  <li key={`${r.key}-${r.message}`}>
                    {FIELD_LABELS[r.key] ?? "An answer"} {r.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="text-lg font-semibold">Add a what-if</h2>
          {full && <p className="mt-1 text-sm text-slate-700">Up to {MAX_VARIANTS} variants: remove one to add another.</p>}
          <div role="group" aria-label="Common what-ifs" className="mt-2 flex flex-wrap gap-2">
            {quick.map((q) => (
              <button
                key={q.id}
                type="button"
                disabled={full || state.variants.some((v) => JSON.stringify(effectivePatch(base, v.patch)) === JSON.stringify(q.patch))}
                title={full ? undefined : `Add a variant: ${q.label}`}
                onClick={() => addVariant({ label: q.label, patch: q.patch })}
                className="rounded-full border border-blue-800 bg-white px-3 py-1 text-sm font-medium text-blue-900 hover:bg-blue-50 disabled:opacity-40"
              >
                {q.label}
              </button>
            ))}
            <button
              type="button"
              disabled={full}
              onClick={() => update({ ...state, variants: [...state.variants, { label: "", patch: {} }] }, true)}
              className="rounded-full border border-slate-400 bg-white px-3 py-1 text-sm font-medium hover:bg-slate-100 disabled:opacity-40"
            >
              Your own variant
            </button>
          </div>
        </div>
        {whatIf.data && (
          <p className="text-xs text-slate-600" aria-live="polite">
            {whatIf.isFetching ? "Updating the comparison…" : `Knowledge base ${whatIf.data.data.kb_version}, advice as of ${whatIf.data.data.base.as_of}`}
          </p>
        )}
      </section>

      <section aria-label="Variants" className="min-w-0 space-y-4">
        {otherError ? <ErrorMessage error={otherError} title="Could not compare" /> : null}
        {state.variants.length === 0 && <Empty>Pick a common what-if or add your own variant to compare it with the base.</Empty>}
        {checked.map(({ variant, index, errors }) => (
          <VariantCard
            key={index}
            index={index}
            base={base}
            variant={variant}
            catalog={catalog.data}
            errors={errors}
            refusals={refusals.filter((r) => r.variant !== null && sentNow[r.variant] === index)}
            result={resultFor(index)}
            pending={whatIf.isFetching || whatIf.isPlaceholderData}
            blocked={whatIf.isError}
            showPlan={planShown === index}
            onShowPlan={(show) => setPlanShown(show ? index : null)}
            onChange={(next) => update({ ...state, variants: state.variants.map((v, i) => (i === index ? next : v)) })}
            onRemove={() => {
              setPlanShown(null);
              update({ ...state, variants: state.variants.filter((_, i) => i !== index) }, true);
            }}
          />
        ))}
      </section>
    </div>
  );
}

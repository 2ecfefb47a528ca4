// /compare: plan a base platform and up to three what-if variants of it side by side.
import { useState } from "react";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { useCatalog } from "../wizard/usePlan";
import { AddWhatIf } from "./AddWhatIf";
import { BasePanel } from "./BasePanel";
import { MAX_VARIANTS, type Variant, quickWhatIfs } from "./model";
import { useCompareUrl } from "./useCompareUrl";
import { useCompareBase, useWhatIf } from "./useComparison";
import { VariantCard } from "./VariantCard";

export default function ComparePage() {
  const [state, update] = useCompareUrl();
  const [planShown, setPlanShown] = useState<number | null>(null);
  const catalog = useCatalog();
  const { design, base } = useCompareBase(state);
  const releaseRequired = (base && catalog.data?.filers[base.filer.vendor]?.release_required) ?? true;
  const { baseErrors, baseValid, checked, whatIf, baseRefusals, otherError, resultFor, refusalsFor } = useWhatIf(
    base,
    state.variants,
    releaseRequired,
  );

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
        <BasePanel
          base={base}
          catalog={catalog.data}
          designId={state.design}
          designName={designName}
          revision={design.data?.latest.number}
          errors={baseErrors}
          valid={baseValid}
          refusals={baseRefusals}
          onPick={(picked) => update({ ...state, design: null, base: { ...picked, as_of: base.as_of } }, true)}
        />
        <AddWhatIf
          base={base}
          quick={quick}
          variants={state.variants}
          full={full}
          onAdd={addVariant}
          onAddOwn={() => update({ ...state, variants: [...state.variants, { label: "", patch: {} }] }, true)}
        />
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
            refusals={refusalsFor(index)}
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

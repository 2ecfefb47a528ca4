// One what-if variant: its name, its answers that differ from the base, what the server refused in
// it, and its outcome.
import type { Catalog, Schemas } from "../../api/client";
import type { Draft } from "../../lib/draft";
import { FIELD_LABELS, type Refusal, type Variant, applyPatch, effectivePatch, variantLabel } from "./model";
import { VariantAnswers } from "./VariantAnswers";
import { VariantOutcome } from "./VariantOutcome";

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

export function VariantCard({ index, base, variant, catalog, errors, refusals, result, pending, blocked, showPlan, onShowPlan, onChange, onRemove }: VariantCardProps) {
  const draft = applyPatch(base, variant.patch);
  const changed = effectivePatch(base, variant.patch);
  const label = variantLabel(base, variant);
  const refused = Object.fromEntries(refusals.filter((r) => r.key).map((r) => [r.key, r.message]));
  const unplaced = refusals.filter((r) => !r.key);
  const problem = (key: string): string | undefined => errors[key] ?? refused[key];
  const headingId = `variant-${index + 1}-title`;

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
      <VariantAnswers
        index={index}
        base={base}
        variant={variant}
        draft={draft}
        changed={changed}
        catalog={catalog}
        problem={problem}
        onChange={onChange}
      />
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
      <VariantOutcome
        draft={draft}
        label={label}
        changeCount={Object.keys(changed).length}
        invalid={Object.keys(errors).length > 0}
        refused={refusals.length > 0}
        blocked={blocked}
        result={result}
        pending={pending}
        showPlan={showPlan}
        onShowPlan={onShowPlan}
      />
    </section>
  );
}

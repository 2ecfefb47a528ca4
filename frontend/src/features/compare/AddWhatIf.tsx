// "Add a what-if": one click for each common change to the base, or an empty variant of your own.
import type { Draft } from "../../lib/draft";
import { MAX_VARIANTS, type QuickWhatIf, type Variant, effectivePatch } from "./model";

interface AddWhatIfProps {
  base: Draft;
  quick: QuickWhatIf[];
  variants: Variant[];
  /** No room for another variant. */
  full: boolean;
  onAdd: (variant: Variant) => void;
  onAddOwn: () => void;
}

export function AddWhatIf({ base, quick, variants, full, onAdd, onAddOwn }: AddWhatIfProps) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-lg font-semibold">Add a what-if</h2>
      {full && <p className="mt-1 text-sm text-slate-700">Up to {MAX_VARIANTS} variants: remove one to add another.</p>}
      <div role="group" aria-label="Common what-ifs" className="mt-2 flex flex-wrap gap-2">
        {quick.map((q) => (
          <button
            key={q.id}
            type="button"
            disabled={full || variants.some((v) => JSON.stringify(effectivePatch(base, v.patch)) === JSON.stringify(q.patch))}
            title={full ? undefined : `Add a variant: ${q.label}`}
            onClick={() => onAdd({ label: q.label, patch: q.patch })}
            className="rounded-full border border-blue-800 bg-white px-3 py-1 text-sm font-medium text-blue-900 hover:bg-blue-50 disabled:opacity-40"
          >
            {q.label}
          </button>
        ))}
        <button
          type="button"
          disabled={full}
          onClick={onAddOwn}
          className="rounded-full border border-slate-400 bg-white px-3 py-1 text-sm font-medium hover:bg-slate-100 disabled:opacity-40"
        >
          Your own variant
        </button>
      </div>
    </div>
  );
}

import type { Catalog } from "../api/client";
import { DEFAULT_DRAFT, type Draft, draftFromPlatform, encodeDraft } from "../lib/draft";

function sameAnswers(a: Draft, b: Draft): boolean {
  return encodeDraft({ ...a, as_of: "" }).toString() === encodeDraft({ ...b, as_of: "" }).toString();
}

/** "Start from a preset": picking one hands its platform, as wizard answers, to `onPick`; the
 * list shows the preset the current answers are, if they are one. */
export function PresetPicker({
  catalog,
  id,
  onPick,
  current,
}: {
  catalog: Catalog;
  id: string;
  onPick: (draft: Draft) => void;
  current?: Draft;
}) {
  const chosen = current ? catalog.presets.find((p) => sameAnswers(draftFromPlatform(p.platform), current))?.id : undefined;
  // The wizard opens on example answers: they are not the user's until one is changed.
  const untouched = current !== undefined && sameAnswers(current, DEFAULT_DRAFT);
  const blank = !current || chosen
    ? "Choose a lab or current platform…"
    : untouched
      ? "Example answers, or choose a preset"
      : "Your own answers, or start from a preset";
  return (
    <>
      <label className="mt-4 block text-sm font-medium text-slate-800" htmlFor={id}>
        Start from a preset
      </label>
      <select
        id={id}
        aria-describedby={untouched ? `${id}-example` : undefined}
        className="mt-1 block w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm"
        value={chosen ?? ""}
        onChange={(event) => {
          const preset = catalog.presets.find((p) => p.id === event.target.value);
          if (preset) onPick(draftFromPlatform(preset.platform));
        }}
      >
        <option value="">{blank}</option>
        {catalog.presets.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      {untouched && (
        <p id={`${id}-example`} className="mt-1 text-xs text-slate-600" data-testid="example-note">
          The answers below are an example platform, not advice: replace them with yours, step by step.
        </p>
      )}
    </>
  );
}

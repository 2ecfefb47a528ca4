import type { Catalog } from "../api/client";
import { type Draft, draftFromPlatform } from "../lib/draft";

/** "Start from a preset": picking one hands its platform, as wizard answers, to `onPick`. */
export function PresetPicker({ catalog, id, onPick }: { catalog: Catalog; id: string; onPick: (draft: Draft) => void }) {
  return (
    <>
      <label className="mt-4 block text-sm font-medium text-slate-800" htmlFor={id}>
        Start from a preset
      </label>
      <select
        id={id}
        className="mt-1 block w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm"
        value=""
        onChange={(event) => {
          const preset = catalog.presets.find((p) => p.id === event.target.value);
          if (preset) onPick(draftFromPlatform(preset.platform));
        }}
      >
        <option value="">Choose a lab or current platform…</option>
        {catalog.presets.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
    </>
  );
}

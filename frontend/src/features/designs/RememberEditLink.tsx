import { useId, useState } from "react";
import { Link } from "react-router";
import { useYourDesigns } from "./useYourDesigns";
import { recordDesign } from "./yourDesigns";

interface SavedDesign {
  id: string;
  name: string;
  edit_token: string;
}

/** Under a just-saved design's links: where this browser keeps it, and the opt-in to keep its
 * edit link too. The checkbox shows what is stored, so it is off until the user ticks it. */
export function RememberEditLink({ design }: { design: SavedDesign }) {
  const checkboxId = useId();
  const kept = useYourDesigns().find((entry) => entry.id === design.id);
  const [refused, setRefused] = useState(false);

  if (!kept) {
    return (
      <p className="mt-3 text-sm text-slate-700">
        This browser does not let the page keep a list of your designs: copy the links above to find the design again.
      </p>
    );
  }
  function remember(checked: boolean) {
    setRefused(!recordDesign(design, { editToken: checked ? design.edit_token : null }));
  }
  return (
    <div className="mt-3 rounded border border-slate-200 p-3 text-sm">
      <p className="text-slate-700">
        Listed in{" "}
        <Link to="/designs" className="font-medium text-blue-800 underline">
          Your designs
        </Link>{" "}
        on this browser, by name and id only.
      </p>
      <div className="mt-2 flex items-start gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          checked={kept.editToken !== undefined}
          onChange={(event) => remember(event.target.checked)}
          aria-describedby={`${checkboxId}-hint`}
          className="mt-0.5 h-4 w-4 shrink-0 accent-blue-800"
        />
        <div>
          <label htmlFor={checkboxId} className="font-medium text-slate-800">
            Remember the edit link on this browser
          </label>
          <p id={`${checkboxId}-hint`} className="text-xs text-slate-600">
            Anyone using this browser profile could then edit the design.
          </p>
        </div>
      </div>
      {refused && (
        <p role="alert" className="mt-2 text-red-800">
          This browser would not store it (storage full or turned off).
        </p>
      )}
    </div>
  );
}

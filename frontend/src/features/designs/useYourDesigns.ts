import { useEffect, useMemo, useSyncExternalStore } from "react";
import { parseYourDesigns, readStoredYourDesigns, recordDesign, subscribeYourDesigns, type YourDesign } from "./yourDesigns";

function noStoredValue(): null {
  return null;
}

/** The designs kept in this browser, newest first; follows changes made here and in other tabs. */
export function useYourDesigns(): YourDesign[] {
  const stored = useSyncExternalStore(subscribeYourDesigns, () => readStoredYourDesigns(), noStoredValue);
  return useMemo(() => parseYourDesigns(stored), [stored]);
}

/** Keep a design in "Your designs" once it is open (its id and name only, never a token). */
export function useRecordOpenedDesign(design: { id: string; name: string } | undefined): void {
  const id = design?.id;
  const name = design?.name;
  useEffect(() => {
    if (id && name) recordDesign({ id, name });
  }, [id, name]);
}

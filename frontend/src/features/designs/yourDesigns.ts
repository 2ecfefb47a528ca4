// "Your designs": the designs saved or opened in this browser, kept in localStorage so they can be
// found again after the tab is closed. Each entry holds the design's id, its name and when it was
// last saved or opened; the edit token only when the user ticked "Remember the edit link". The
// stored value is untrusted (any script or person with the profile can change it): every entry is
// checked on read and the malformed ones are dropped.
import { z } from "zod";

export const YOUR_DESIGNS_KEY = "nasplan-your-designs";
export const MAX_YOUR_DESIGNS = 50;
/** Fired on window after this page changes the list ("storage" only fires in other tabs). */
export const YOUR_DESIGNS_EVENT = "nasplan-your-designs-changed";
const STORED_VERSION = 1;
/** 50 entries take about 15 kB: a longer value is not ours and is ignored unparsed. */
const MAX_STORED_CHARS = 100_000;

// The server's design ids (backend/nasplan/designs/service.py, _DESIGN_ID) and tokens
// (secrets.token_urlsafe: URL-safe base64).
const designIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const editTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);

const entrySchema = z.object({
  id: designIdSchema,
  name: z.string().trim().min(1).max(120),
  lastOpened: z.iso.datetime(),
  editToken: editTokenSchema.optional(),
});

const storedSchema = z.object({ version: z.literal(STORED_VERSION), designs: z.array(z.unknown()) });

export type YourDesign = z.infer<typeof entrySchema>;

type ReadableStorage = Pick<Storage, "getItem">;
type WritableStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** localStorage, or undefined where there is none or it may not be used (private modes). */
function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function isDesignId(value: string): boolean {
  return designIdSchema.safeParse(value).success;
}

/** The valid entries of a stored value, newest first, one per design, at most MAX_YOUR_DESIGNS. */
export function parseYourDesigns(raw: string | null | undefined): YourDesign[] {
  if (!raw || raw.length > MAX_STORED_CHARS) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const stored = storedSchema.safeParse(json);
  if (!stored.success) return [];
  const newest = new Map<string, YourDesign>();
  for (const item of stored.data.designs) {
    const entry = entrySchema.safeParse(item);
    if (!entry.success) continue;
    const seen = newest.get(entry.data.id);
    if (!seen || Date.parse(entry.data.lastOpened) > Date.parse(seen.lastOpened)) newest.set(entry.data.id, entry.data);
  }
  return sortNewestFirst([...newest.values()]).slice(0, MAX_YOUR_DESIGNS);
}

function sortNewestFirst(designs: YourDesign[]): YourDesign[] {
  return designs.sort((a, b) => Date.parse(b.lastOpened) - Date.parse(a.lastOpened));
}

/** The stored value as it is (a string compares by value: a stable snapshot for React). */
export function readStoredYourDesigns(storage: ReadableStorage | undefined = browserStorage()): string | null {
  try {
    return storage?.getItem(YOUR_DESIGNS_KEY) ?? null;
  } catch {
    return null;
  }
}

export function readYourDesigns(storage: ReadableStorage | undefined = browserStorage()): YourDesign[] {
  return parseYourDesigns(readStoredYourDesigns(storage));
}

/** Store the list; false when the browser refused (storage full, blocked or absent). */
function writeYourDesigns(designs: YourDesign[], storage: WritableStorage | undefined): boolean {
  if (!storage) return false;
  try {
    if (designs.length === 0) storage.removeItem(YOUR_DESIGNS_KEY);
    else storage.setItem(YOUR_DESIGNS_KEY, JSON.stringify({ version: STORED_VERSION, designs: designs.slice(0, MAX_YOUR_DESIGNS) }));
  } catch {
    return false;
  }
  if (typeof window !== "undefined") window.dispatchEvent(new Event(YOUR_DESIGNS_EVENT));
  return true;
}

export interface RecordOptions {
  now?: Date;
  /** A token remembers the edit link, null forgets it, leaving it out keeps what is stored. */
  editToken?: string | null;
}

/** Put a design at the top of the list, as saved or opened now. Only its id and name are taken
 * from `design`, never anything else it carries. False when it was not kept. */
export function recordDesign(
  design: { id: string; name: string },
  { now = new Date(), editToken }: RecordOptions = {},
  storage: WritableStorage | undefined = browserStorage(),
): boolean {
  const current = readYourDesigns(storage);
  const kept = editToken === undefined ? current.find((d) => d.id === design.id)?.editToken : (editToken ?? undefined);
  const entry = entrySchema.safeParse({ id: design.id, name: design.name, lastOpened: now.toISOString(), editToken: kept });
  if (!entry.success) return false;
  return writeYourDesigns([entry.data, ...current.filter((d) => d.id !== design.id)], storage);
}

/** Drop a design's remembered edit token, keeping the design in the list. */
export function forgetEditLink(id: string, storage: WritableStorage | undefined = browserStorage()): boolean {
  const designs = readYourDesigns(storage).map((d) => (d.id === id ? { id: d.id, name: d.name, lastOpened: d.lastOpened } : d));
  return writeYourDesigns(designs, storage);
}

export function forgetDesign(id: string, storage: WritableStorage | undefined = browserStorage()): boolean {
  return writeYourDesigns(readYourDesigns(storage).filter((d) => d.id !== id), storage);
}

export function forgetAllDesigns(storage: WritableStorage | undefined = browserStorage()): boolean {
  return writeYourDesigns([], storage);
}

/** Call `onChange` whenever the list may have changed, here or in another tab. */
export function subscribeYourDesigns(onChange: () => void): () => void {
  if (typeof window === "undefined") return () => undefined;
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === YOUR_DESIGNS_KEY) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(YOUR_DESIGNS_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(YOUR_DESIGNS_EVENT, onChange);
  };
}

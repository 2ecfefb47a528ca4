/** Colour theme: "system" follows the operating system, "light" and "dark" force one.
 * The choice lives in localStorage and is applied as <html data-theme="…">; index.css maps
 * that attribute (and the system preference) onto the palette. */
export type Theme = "system" | "light" | "dark";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];
export const THEME_STORAGE_KEY = "nasplan-theme";

type ReadableStorage = Pick<Storage, "getItem">;
type WritableStorage = Pick<Storage, "setItem" | "removeItem">;
type ThemedElement = { dataset: DOMStringMap };

/** A stored value as a theme; anything unknown (or nothing) means "system". */
export function parseTheme(value: unknown): Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value) ? (value as Theme) : "system";
}

/** localStorage, or undefined where there is none or it may not be used (private modes). */
function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function readTheme(storage: ReadableStorage | undefined = browserStorage()): Theme {
  try {
    return parseTheme(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return "system";
  }
}

export function saveTheme(theme: Theme, storage: WritableStorage | undefined = browserStorage()): void {
  try {
    if (theme === "system") storage?.removeItem(THEME_STORAGE_KEY);
    else storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage full or blocked: the theme still applies to this page.
  }
}

export function applyTheme(theme: Theme, root: ThemedElement | undefined = typeof document === "undefined" ? undefined : document.documentElement): void {
  if (root) root.dataset.theme = theme;
}

/** Remember a choice and show it at once. */
export function setTheme(theme: Theme): void {
  saveTheme(theme);
  applyTheme(theme);
}

// Apply the stored theme as soon as this module loads (Layout imports it), before React renders.
applyTheme(readTheme());

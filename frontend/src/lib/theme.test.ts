import { describe, expect, it } from "vitest";
import { THEMES, THEME_STORAGE_KEY, applyTheme, parseTheme, readTheme, saveTheme } from "./theme";
import { readTextFile } from "./readTextFile";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe("parseTheme", () => {
  it("accepts the three themes", () => {
    expect(parseTheme("system")).toBe("system");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("dark")).toBe("dark");
  });
  it("falls back to system for anything else", () => {
    for (const v of [null, undefined, "", "Dark", "blue", 1, {}]) expect(parseTheme(v)).toBe("system");
  });
});

describe("readTheme / saveTheme", () => {
  it("round-trips through storage under nasplan-theme", () => {
    const s = memoryStorage();
    saveTheme("dark", s);
    expect(s.data.get(THEME_STORAGE_KEY)).toBe("dark");
    expect(readTheme(s)).toBe("dark");
  });
  it("forgets the key when going back to system", () => {
    const s = memoryStorage({ [THEME_STORAGE_KEY]: "light" });
    saveTheme("system", s);
    expect(s.data.has(THEME_STORAGE_KEY)).toBe(false);
    expect(readTheme(s)).toBe("system");
  });
  it("treats missing, garbage or throwing storage as system", () => {
    expect(readTheme(undefined)).toBe("system");
    expect(readTheme(memoryStorage({ [THEME_STORAGE_KEY]: "sepia" }))).toBe("system");
    const throwing = { getItem: () => { throw new Error("blocked"); } };
    expect(readTheme(throwing)).toBe("system");
    const full = { setItem: () => { throw new Error("quota"); }, removeItem: () => undefined };
    expect(() => saveTheme("dark", full)).not.toThrow();
  });
});

describe("applyTheme", () => {
  it("sets data-theme on the root element", () => {
    const root = { dataset: {} as DOMStringMap };
    applyTheme("dark", root);
    expect(root.dataset.theme).toBe("dark");
    applyTheme("system", root);
    expect(root.dataset.theme).toBe("system");
  });
});

// public/theme.js applies a stored theme before the app loads; it must read the same key and
// know the same forced themes as this module.

describe("public/theme.js", () => {
  const early = readTextFile(new URL("../../public/theme.js", import.meta.url));
  it("reads the key this module writes", () => {
    expect(early).toContain(`localStorage.getItem("${THEME_STORAGE_KEY}")`);
  });
  it("applies exactly the forced themes", () => {
    for (const theme of THEMES.filter((t) => t !== "system")) expect(early).toContain(`theme === "${theme}"`);
  });
});

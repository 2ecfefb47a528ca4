import { describe, expect, it } from "vitest";
import {
  MAX_YOUR_DESIGNS,
  YOUR_DESIGNS_KEY,
  forgetAllDesigns,
  forgetDesign,
  forgetEditLink,
  isDesignId,
  parseYourDesigns,
  readYourDesigns,
  recordDesign,
} from "./yourDesigns";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

const ID = "AbCdEfGhIjKlMnOpQrStUv";
const OTHER_ID = "zyxwvutsrqponmlkjihg-_";
const TOKEN = "k3Y-abcdefghijklmnopqrstuvwxyz_0";
const at = (iso: string) => ({ now: new Date(iso) });

function stored(designs: unknown[]): string {
  return JSON.stringify({ version: 1, designs });
}

describe("recordDesign", () => {
  it("keeps the id, the name and when, and nothing else the design carries", () => {
    const storage = memoryStorage();
    const created = { id: ID, name: "PROD on filer01", edit_token: TOKEN, review_token: TOKEN, revision: 1 };
    expect(recordDesign(created, at("2026-11-23T01:04:00Z"), storage)).toBe(true);
    const raw = storage.data.get(YOUR_DESIGNS_KEY) ?? "";
    expect(raw).not.toContain(TOKEN);
    expect(JSON.parse(raw)).toEqual({ version: 1, designs: [{ id: ID, name: "PROD on filer01", lastOpened: "2026-11-23T01:04:00.000Z" }] });
  });

  it("keeps the edit token only when given one, and opening again keeps it until it is forgotten", () => {
    const storage = memoryStorage();
    recordDesign({ id: ID, name: "A" }, { ...at("2026-11-01T00:00:00Z"), editToken: TOKEN }, storage);
    recordDesign({ id: ID, name: "A renamed" }, at("2026-11-02T00:00:00Z"), storage);
    expect(readYourDesigns(storage)).toEqual([{ id: ID, name: "A renamed", lastOpened: "2026-11-02T00:00:00.000Z", editToken: TOKEN }]);
    recordDesign({ id: ID, name: "A renamed" }, { ...at("2026-11-03T00:00:00Z"), editToken: null }, storage);
    expect(storage.data.get(YOUR_DESIGNS_KEY)).not.toContain(TOKEN);
    expect(readYourDesigns(storage)[0]?.editToken).toBeUndefined();
  });

  it("puts the latest design first and lists each design once", () => {
    const storage = memoryStorage();
    recordDesign({ id: ID, name: "First" }, at("2026-11-01T00:00:00Z"), storage);
    recordDesign({ id: OTHER_ID, name: "Second" }, at("2026-11-02T00:00:00Z"), storage);
    recordDesign({ id: ID, name: "First" }, at("2026-11-03T00:00:00Z"), storage);
    expect(readYourDesigns(storage).map((d) => d.name)).toEqual(["First", "Second"]);
  });

  it(`keeps at most ${MAX_YOUR_DESIGNS} designs, dropping the oldest`, () => {
    const storage = memoryStorage();
    for (let n = 0; n < MAX_YOUR_DESIGNS + 5; n += 1) {
      recordDesign({ id: `design${n}`, name: `Design ${n}` }, { now: new Date(Date.UTC(2026, 0, 1, 0, n)) }, storage);
    }
    const designs = readYourDesigns(storage);
    expect(designs).toHaveLength(MAX_YOUR_DESIGNS);
    expect(designs[0]?.id).toBe(`design${MAX_YOUR_DESIGNS + 4}`);
    expect(designs.map((d) => d.id)).not.toContain("design4");
    expect(designs.map((d) => d.id)).toContain("design5");
  });

  it("refuses what is not a design id, a name or a token, and stores nothing", () => {
    const storage = memoryStorage();
    expect(recordDesign({ id: "../etc/passwd", name: "x" }, {}, storage)).toBe(false);
    expect(recordDesign({ id: ID, name: "   " }, {}, storage)).toBe(false);
    expect(recordDesign({ id: ID, name: "x".repeat(121) }, {}, storage)).toBe(false);
    expect(recordDesign({ id: ID, name: "x" }, { editToken: "not a token!" }, storage)).toBe(false);
    expect(storage.data.size).toBe(0);
  });

  it("reports a full or missing storage instead of throwing", () => {
    const full = { ...memoryStorage(), setItem: () => { throw new DOMException("full", "QuotaExceededError"); } };
    expect(recordDesign({ id: ID, name: "A" }, {}, full)).toBe(false);
    const blocked = { getItem: () => { throw new Error("blocked"); }, setItem: () => { throw new Error("blocked"); }, removeItem: () => undefined };
    expect(() => recordDesign({ id: ID, name: "A" }, {}, blocked)).not.toThrow();
    expect(readYourDesigns(blocked)).toEqual([]);
    expect(recordDesign({ id: ID, name: "A" }, {}, undefined)).toBe(false);
  });
});

describe("parseYourDesigns", () => {
  const good = { id: ID, name: "Good", lastOpened: "2026-11-01T00:00:00.000Z" };

  it("reads nothing from a missing, broken or foreign value", () => {
    for (const raw of [null, undefined, "", "{", "[]", "null", '"text"', JSON.stringify({ designs: [good] }), JSON.stringify({ version: 2, designs: [good] })]) {
      expect(parseYourDesigns(raw)).toEqual([]);
    }
    expect(parseYourDesigns(stored([good]) + " ".repeat(100_001))).toEqual([]);
  });

  it("drops the malformed entries and keeps the good ones", () => {
    const bad = [
      null,
      "x",
      { ...good, id: "has space" },
      { ...good, id: "x".repeat(65) },
      { ...good, id: 42 },
      { ...good, name: "" },
      { ...good, name: "n".repeat(121) },
      { ...good, lastOpened: "yesterday" },
      { ...good, editToken: "short" },
      { ...good, editToken: "<script>alert(1)</script>abcdefgh" },
    ];
    expect(parseYourDesigns(stored([...bad, good]))).toEqual([good]);
  });

  it("drops fields it does not know", () => {
    expect(parseYourDesigns(stored([{ ...good, review_token: TOKEN, html: "<b>" }]))).toEqual([good]);
  });

  it("keeps the newest entry of a design listed twice", () => {
    const older = { ...good, name: "Old name", lastOpened: "2026-10-01T00:00:00.000Z" };
    expect(parseYourDesigns(stored([older, good]))).toEqual([good]);
  });
});

describe("forgetting", () => {
  function twoDesigns() {
    const storage = memoryStorage();
    recordDesign({ id: ID, name: "A" }, { ...at("2026-11-01T00:00:00Z"), editToken: TOKEN }, storage);
    recordDesign({ id: OTHER_ID, name: "B" }, at("2026-11-02T00:00:00Z"), storage);
    return storage;
  }

  it("forgets one design", () => {
    const storage = twoDesigns();
    expect(forgetDesign(ID, storage)).toBe(true);
    expect(readYourDesigns(storage).map((d) => d.id)).toEqual([OTHER_ID]);
    expect(storage.data.get(YOUR_DESIGNS_KEY)).not.toContain(TOKEN);
  });

  it("forgets an edit link but keeps the design and its date", () => {
    const storage = twoDesigns();
    forgetEditLink(ID, storage);
    expect(storage.data.get(YOUR_DESIGNS_KEY)).not.toContain(TOKEN);
    expect(readYourDesigns(storage).find((d) => d.id === ID)).toEqual({ id: ID, name: "A", lastOpened: "2026-11-01T00:00:00.000Z" });
  });

  it("forgets all, leaving no key behind", () => {
    const storage = twoDesigns();
    expect(forgetAllDesigns(storage)).toBe(true);
    expect(storage.data.has(YOUR_DESIGNS_KEY)).toBe(false);
    expect(readYourDesigns(storage)).toEqual([]);
  });
});

describe("isDesignId", () => {
  it("accepts the server's ids and nothing else", () => {
    expect(isDesignId(ID)).toBe(true);
    for (const id of ["", "a/b", "a b", "x".repeat(65), "é"]) expect(isDesignId(id)).toBe(false);
  });
});

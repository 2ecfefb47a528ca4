import { describe, expect, it } from "vitest";
import { loadedItems, olderCount } from "./keptPages";

describe("pages of kept records", () => {
  it("lists what is loaded, newest first, and counts what is older", () => {
    const first = { items: [{ id: 9 }, { id: 8 }], next: 8, total: 5 };
    const second = { items: [{ id: 5 }, { id: 3 }], next: 3, total: 5 };
    const last = { items: [{ id: 1 }], next: null, total: 5 };
    expect(loadedItems([first, second]).map((a) => a.id)).toEqual([9, 8, 5, 3]);
    expect(olderCount([first])).toBe(3);
    expect(olderCount([first, second])).toBe(1);
    expect(olderCount([first, second, last])).toBe(0);
  });

  it("has nothing before the first page arrives", () => {
    expect(loadedItems(undefined)).toEqual([]);
    expect(olderCount(undefined)).toBe(0);
    expect(olderCount([{ items: [], next: null, total: 0 }])).toBe(0);
  });
});

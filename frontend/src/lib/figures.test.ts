import { describe, expect, it } from "vitest";
import { countWords, rateWords } from "./figures";

describe("modelled rates", () => {
  it("claim no more precision than the model has", () => {
    expect(rateWords(6002.1)).toBe("6.0 GB/s");
    expect(rateWords(1176.9)).toBe("1.2 GB/s");
    expect(rateWords(462.5)).toBe("463 MB/s");
    expect(rateWords(117.7)).toBe("118 MB/s");
  });
});

describe("modelled counts", () => {
  it("are rounded to two significant figures, half up, as the runbook says them", () => {
    expect(countWords(141_400)).toBe("140,000");
    expect(countWords(49_900)).toBe("50,000");
    expect(countWords(3_370)).toBe("3,400");
    expect(countWords(145_000)).toBe("150,000");
    expect(countWords(42)).toBe("42");
  });
});

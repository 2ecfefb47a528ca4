import { describe, expect, it } from "vitest";
import { rateWords } from "./figures";

describe("modelled rates", () => {
  it("claim no more precision than the model has", () => {
    expect(rateWords(6002.1)).toBe("6.0 GB/s");
    expect(rateWords(1176.9)).toBe("1.2 GB/s");
    expect(rateWords(462.5)).toBe("463 MB/s");
    expect(rateWords(117.7)).toBe("118 MB/s");
  });
});

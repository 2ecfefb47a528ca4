import { describe, expect, it } from "vitest";
import { legendFor, lineKind } from "./Diagram";

describe("layout diagram lines", () => {
  it("draws direct I/O, attribute caching off and cached mounts apart", () => {
    expect(lineKind(["rw", "forcedirectio", "noac"])).toBe("direct");
    expect(lineKind(["rw", "actimeo=0"])).toBe("uncached");
    expect(lineKind(["rw", "noac"])).toBe("uncached");
    expect(lineKind(["rw", "hard"])).toBe("cached");
  });

  it("lists in the legend only the kinds of line drawn", () => {
    expect(legendFor([{ options: ["rw"] }])).toBe("dashed blue: cached mount");
    expect(legendFor([{ options: ["forcedirectio"] }, { options: ["actimeo=0"] }])).toBe(
      "solid orange: forcedirectio (direct I/O) · dotted purple: attribute caching off (noac or actimeo=0)",
    );
    expect(legendFor([])).toBe("");
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { inOrder, today, unreleasedWords } from "./dateChanges";
import { ChangesStory } from "./TimeTravel";

describe("time travel is told from the earlier date forward", () => {
  it("orders two dates whichever was chosen first; today (empty) is the latest", () => {
    expect(inOrder("", "2005-06-01")).toEqual(["2005-06-01", ""]);
    expect(inOrder("2005-06-01", "")).toEqual(["2005-06-01", ""]);
    expect(inOrder("2011-06-01", "2009-06-01")).toEqual(["2009-06-01", "2011-06-01"]);
    expect(inOrder(today(), "")).toEqual([today(), ""]);
  });

  it("names the releases that did not exist yet, each with when it came out", () => {
    const releases = [
      { label: "Oracle Database 19c", available: "on 25 April 2019" },
      { label: "Oracle Linux 9", available: "in June 2022" },
      { label: "ONTAP 9.14.1", available: "in January 2024" },
    ];
    expect(unreleasedWords(releases)).toBe(
      "Oracle Database 19c (first released on 25 April 2019), Oracle Linux 9 (in June 2022) and ONTAP 9.14.1 (in January 2024)",
    );
    expect(unreleasedWords(releases.slice(0, 1))).toBe("Oracle Database 19c (first released on 25 April 2019)");
    const html = renderToStaticMarkup(
      createElement(ChangesStory, { changes: [], from: "2007-06-01", to: "", error: null, notYetReleased: releases.slice(0, 1) }),
    );
    expect(html).toContain("On 2007-06-01, Oracle Database 19c (first released on 25 April 2019) did not exist yet");
    expect(renderToStaticMarkup(createElement(ChangesStory, { changes: [], from: "2007-06-01", to: "", error: null }))).not.toContain("did not exist");
  });
});

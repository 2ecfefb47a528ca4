import { expect, test } from "@playwright/test";
import { waitForPlan } from "./helpers";

test("time travel tells the same story, from the earlier date forward, whichever date is chosen first", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3496-lab");
  await waitForPlan(page);
  const changes = page.getByRole("region", { name: "What changed" });
  const reversed = changes.getByRole("list", { name: "Advice reversed" });

  // Today -> 2005: the story still runs from 2005 to today.
  await page.getByRole("button", { name: "2005" }).click();
  await expect(changes).toContainText("change(s) from 2005-06-01 to today");
  // The source's short name arrives with the knowledge base; the sentence is whole then.
  await expect(reversed).toContainText("minra on → off, since TR-3322's May 2009 revision");
  const fromToday = await reversed.innerText();

  // 2005 -> today: the same story, word for word.
  await page.getByRole("button", { name: "Today" }).click();
  await expect(changes).toContainText("change(s) from 2005-06-01 to today");
  await expect(reversed).toContainText("minra on → off, since TR-3322's May 2009 revision");
  expect(await reversed.innerText()).toBe(fromToday);
});

test("a platform planned at a date before its releases existed says so", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-linux-ontap");
  await waitForPlan(page);
  await page.getByRole("button", { name: "2009" }).click();
  const note = page.getByTestId("not-yet-released");
  await expect(note).toContainText("On 2009-06-01, Oracle Database 19c (first released on 25 April 2019)");
  await expect(note).toContainText("did not exist yet");
  await page.getByRole("button", { name: "Today" }).click();
  await expect(note).toContainText("On 2009-06-01");
});

import { expect, test } from "@playwright/test";
import { expectAccessible, waitForPlan } from "./helpers";

test("mount options are chips: each tells its rules, arrow keys move between them, one Tab crosses them", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3322-lab");
  await waitForPlan(page);
  const chips = page.getByRole("list", { name: "Mount options for /u03/oralog/PROD" });
  const forcedirectio = chips.getByRole("button", { name: /^forcedirectio\b/ });
  await forcedirectio.click();
  const why = page.getByRole("region", { name: "Why forcedirectio on /u03/oralog/PROD" });
  await expect(why.getByRole("link", { name: /FORCEDIRECTIO/ }).first()).toBeVisible();
  // The exact line is still one click away and whole.
  await expect(page.getByLabel("Mount table line for /u03/oralog/PROD")).toContainText("forcedirectio");

  const first = chips.getByRole("button").first();
  await first.focus();
  const names = await chips.getByRole("button").allTextContents();
  await page.keyboard.press("ArrowRight");
  await expect(chips.getByRole("button").nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(chips.getByRole("button").nth(names.length - 1)).toBeFocused();
  await page.keyboard.press("Tab");
  const inside = await chips.evaluate((list) => list.contains(document.activeElement));
  expect(inside).toBe(false);
  await expectAccessible(page, "plan with a chip open");
});

import { expect, test } from "@playwright/test";
import { waitForPlan } from "./helpers";

test("the bundle's files can be read before download, by team, each with its own copy", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3322-lab");
  await waitForPlan(page);
  await page.getByRole("button", { name: "Preview the files" }).click();
  await page.getByRole("tab", { name: /^Filer/ }).click();
  const code = page.locator("pre code.hljs");
  await expect(code).toContainText("minra off");
  await page.getByRole("tab", { name: /^Mount table/ }).click();
  await expect(code).toContainText("forcedirectio");
  await expect(page.getByRole("button", { name: /Copy/ }).last()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

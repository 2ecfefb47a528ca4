import { expect, test } from "@playwright/test";
import { expectAccessible, waitForPlan } from "./helpers";

test("dark mode: chosen in the header, kept across a reload, readable", async ({ page }) => {
  await page.goto("/");
  await waitForPlan(page);
  await page.getByLabel("Theme").selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();
  await page.reload();
  await waitForPlan(page);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background()).toBe(dark);
  await expectAccessible(page, "wizard in dark mode");
  await page.getByLabel("Theme").selectOption("light");
  expect(await background()).not.toBe(dark);
});

test("a chosen theme applies before the app's code runs (no flash of the other theme)", async ({ page }) => {
  await page.goto("/");
  // Without the app's JavaScript, only the early script in the page's head can set the theme.
  await page.route("**/assets/*.js", (route) => route.abort());
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.evaluate(() => localStorage.setItem("nasplan-theme", "light"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  const light = await background();
  await page.evaluate(() => localStorage.setItem("nasplan-theme", "dark"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background()).not.toBe(light);
});

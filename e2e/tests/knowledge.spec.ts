import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, WIDTHS } from "./helpers";

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`knowledge browser at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/rules");
    await page.getByLabel("Search").fill("minra");
    await expect(page.getByRole("link", { name: /minra on/i })).toBeVisible();
    await expectAccessible(page, `rules ${name}`);
    await screenshot(page, `rules-${name}`);
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Source").selectOption("tr-3496");
    await expect(page.getByText(/^\d+ rules$/)).toBeVisible();
    await page.goto("/rules/NTAP-MINRA-OFF");
    await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Minimal read-ahead (minra on) for OLTP volumes" })).toBeVisible();
    await expectAccessible(page, `rule ${name}`);
    await screenshot(page, `rule-${name}`);
  });
}

test("an unknown rule shows a readable error, not a blank page", async ({ page }) => {
  await page.goto("/rules/NO-SUCH-RULE");
  await expect(page.getByRole("alert")).toContainText("no rule");
});

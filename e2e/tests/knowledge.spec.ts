import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, WIDTHS } from "./helpers";

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`knowledge browser at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/rules");
    await page.getByLabel("Search").fill("minra");
    await expect(page.getByRole("link", { name: /minra on/i })).toBeVisible();
    // Each rule says in words when it applies.
    const minraOn = page.getByRole("listitem").filter({ hasText: "NTAP-MINRA-ON-OLTP" });
    await expect(minraOn).toContainText("Applies to Data ONTAP (7-mode); OLTP workload");
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

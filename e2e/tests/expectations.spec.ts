import { expect, test } from "@playwright/test";
import { SCREENSHOTS, waitForPlan } from "./helpers";

/** Issue 22: the plan page says what random reads and the host's CPU to expect, with the
 * kernel client held to its one connection and Direct NFS to the link. */
for (const width of [1440, 390]) {
  test(`what to expect: random reads and host CPU, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await page.getByLabel("Start from a preset").selectOption("fawcett-lab");
    await waitForPlan(page);
    const card = page.getByRole("region", { name: "What to expect" });
    await expect(card).toContainText(
      "8 KB random reads: at most about 140,000 a second over the planned paths; about 3,400 a second per read in flight",
    );
    await expect(card).toContainText("Host CPU: Direct NFS spends less host CPU per I/O than the kernel client.");
    await page.getByRole("button", { name: /^3\. Oracle/ }).click();
    await page.getByLabel("Direct NFS (dNFS)").uncheck();
    await expect(card).toContainText("at most about 50,000 a second over the planned paths");
    await expect(card).toContainText("kernel NFS stopped scaling after 32 users");
    await card.screenshot({ path: `${SCREENSHOTS}expectations-${width}.png` });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(wide).toBe(false);
  });
}

import { expect, test } from "@playwright/test";
import { SCREENSHOTS, waitForPlan } from "./helpers";

/** Issue 22: kernel NFS over two storage paths, the filer's address on each given in the
 * hand-over: the data files are mounted through path 1, the other volumes through path 2. */
for (const width of [1440, 390]) {
  test(`kernel NFS mounts spread over two paths, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await page.getByLabel("Start from a preset").selectOption("current-rac");
    await waitForPlan(page);
    await page.getByRole("button", { name: /^3\. Oracle/ }).click();
    await page.getByLabel("Direct NFS (dNFS)").uncheck();
    const findings = page.getByRole("region", { name: "Findings" });
    await expect(findings).toContainText("Give the filer's address on each storage path");
    await page.getByRole("button", { name: "6. Hand-over & sizing" }).click();
    await page.getByLabel("Path 1: filer address", { exact: true }).fill("192.168.10.21");
    await page.getByLabel("Path 2: filer address", { exact: true }).fill("192.168.11.21");
    await waitForPlan(page);
    await expect(findings).toContainText("Kernel NFS mounts spread over 2 storage paths");
    const mounts = page.getByRole("region", { name: "Mounts" });
    await expect(mounts).toContainText("192.168.10.21:/racdb_datathrough storage path 1");
    await expect(mounts).toContainText("192.168.11.21:/racdb_redothrough storage path 2");
    await expect(mounts).not.toContainText("192.168.10.21:/racdb_redo");
    await mounts.screenshot({ path: `${SCREENSHOTS}path-spread-mounts-${width}.png` });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(wide).toBe(false);
  });
}

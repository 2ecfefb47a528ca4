import { expect, test, type Page } from "@playwright/test";
import { SCREENSHOTS, waitForPlan } from "./helpers";

/** The RAC preset on kernel NFS, at the Oracle step. */
async function kernelNfsRac(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-rac");
  await waitForPlan(page);
  await page.getByRole("button", { name: /^3\. Oracle/ }).click();
  await page.getByLabel("Direct NFS (dNFS)").uncheck();
}

/** Issue 22: kernel NFS over two storage paths, the filer's address on each given in the
 * hand-over: the data files are mounted through path 1, the other volumes through path 2. */
for (const width of [1440, 390]) {
  test(`kernel NFS mounts spread over two paths, at ${width} px`, async ({ page }) => {
    await kernelNfsRac(page, width);
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

/** A DSS database on kernel NFS over two paths: the datafiles split over a volume per path. */
for (const width of [1440, 390]) {
  test(`a DSS database's datafiles split over a volume per path, at ${width} px`, async ({ page }) => {
    await kernelNfsRac(page, width);
    await page.getByLabel("Workload").selectOption("dss");
    await page.getByRole("button", { name: "6. Hand-over & sizing" }).click();
    await page.getByLabel("Path 1: filer address", { exact: true }).fill("192.168.10.21");
    await page.getByLabel("Path 2: filer address", { exact: true }).fill("192.168.11.21");
    await waitForPlan(page);
    const findings = page.getByRole("region", { name: "Findings" });
    await expect(findings).toContainText("The datafiles are split over 2 data volumes, one per path");
    const mounts = page.getByRole("region", { name: "Mounts" });
    await expect(mounts).toContainText("192.168.10.21:/racdb_data1through storage path 1");
    await expect(mounts).toContainText("192.168.11.21:/racdb_data2through storage path 2");
    await expect(mounts).toContainText("/u02/oradata2/RACDB");
    await mounts.screenshot({ path: `${SCREENSHOTS}path-split-mounts-${width}.png` });
    const diagram = page.getByRole("figure", { name: "Layout diagram" }).locator("visible=true");
    await expect(diagram).toContainText("racdb_data2");
    await diagram.screenshot({ path: `${SCREENSHOTS}path-split-diagram-${width}.png` });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(wide).toBe(false);
  });
}

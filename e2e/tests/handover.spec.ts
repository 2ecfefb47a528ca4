import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCREENSHOTS, WIDTHS, expectAccessible, screenshot, waitForPlan } from "./helpers";

/** Linux RAC + Direct NFS + ONTAP 9 (the current-rac preset), every hand-over and sizing answer. */
async function fillHandover(page: Page): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-rac");
  await waitForPlan(page);
  await page.getByRole("button", { name: "6. Hand-over & sizing" }).click();
  await expect(page.getByRole("heading", { name: "Hand-over & sizing" })).toBeVisible();
  const answers: Record<string, string> = {
    "SVM (vserver) name": "svm_prod",
    Aggregate: "aggr1_ssd",
    "Broadcast domain": "Storage",
    "RAC node host names": "rac01, rac02",
    "Client subnet": "192.168.10.0/23",
    "Oracle owner user id": "54321",
    "Oracle owner group id": "54321",
    "Path 1: host interface": "ens1f0",
    "Path 1: host address": "192.168.10.11/24",
    "Path 1: filer port": "e0e",
    "Path 1: filer address": "192.168.10.21",
    "Path 2: host interface": "ens1f1",
    "Path 2: host address": "192.168.11.11/24",
    "Path 2: filer port": "e0f",
    "Path 2: filer address": "192.168.11.21",
    "Datafiles today (GB)": "2000",
    "Growth per year (%)": "20",
    "Horizon (years)": "3",
    "Data changed per day (%)": "5",
    "Snapshot retention (days)": "7",
    "Peak redo rate (MB/s)": "15",
    "Redo per day (GB)": "300",
    "Archive retention (days)": "3",
    "Oracle homes on the filer": "2",
    "Size of one Oracle home (GB)": "40",
    "Clusterware files (GB)": "10",
  };
  for (const [label, value] of Object.entries(answers)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByLabel("The change").selectOption("new_build");
  await waitForPlan(page);
}

function unzip(bytes: Buffer): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), "nasplan-bundle-"));
  const zip = join(dir, "bundle.zip");
  execFileSync("sh", ["-c", 'cat > "$1"', "sh", zip], { input: bytes });
  execFileSync("unzip", ["-q", zip, "-d", join(dir, "files")]);
  return (name) => readFileSync(join(dir, "files", "nasplan-racdb", name), "utf8");
}

test("hand-over answers and sizes reach the bundle; the runbook prints", async ({ page }) => {
  await fillHandover(page);
  // The page shows the sizes: on the diagram and in the capacity table.
  await expect(page.getByRole("figure", { name: "Layout diagram" }).getByText("data · 4,671 GB")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Capacity" })).toBeVisible();
  await expect(page.getByText(/Oracle homes: 2 x 40 GB = 80\.0 GB/)).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download config bundle (.zip)" }).click(),
  ]);
  const file = unzip(readFileSync(await download.path()));

  const filer = file("filer/commands.txt");
  expect(filer).toContain("-vserver svm_prod ");
  expect(filer).toContain("-aggregate aggr1_ssd -size 4671g ");
  expect(filer).toContain("-percent-snapshot-space 26");
  expect(filer).toContain("-maximum-size 5606g");
  expect(filer).toContain("-clientmatch 192.168.10.0/23 ");
  expect(filer).toContain("-broadcast-domain Storage ");
  const oranfstab = file("oracle/oranfstab");
  expect(oranfstab).toContain("local: ens1f0\npath: 192.168.10.21\nlocal: ens1f1\npath: 192.168.11.21\n");
  expect(file("ansible/inventory.ini")).toMatch(/\nrac01\nrac02\n$/);
  expect(file("oracle/redo_logs.sql")).toContain("SIZE 18000M;");
  const runbook = file("RUNBOOK.md");
  expect(runbook).toContain("| racdb_data | data | 4,671 GB | 26% | 5,606 GB |");
  // A new build: the database is created on the volumes; nothing is stopped, nothing moved.
  expect(runbook).toContain("New build: no database RACDB runs yet.");
  expect(runbook).toContain("Create the database on the mounts (not scripted)");
  expect(runbook).not.toContain("Stop the database on every node");
  // Every question answered: nothing is left to fill in, in any file.
  expect(runbook).not.toContain("Values to fill in first");
  expect(filer).not.toMatch(/<[a-z0-9-]+>/);
  expect(file("rollback/filer_rollback.txt")).not.toMatch(/<[a-z0-9-]+>/);

  // The runbook as the reviewer prints it.
  const platformResponse = await page.request.post("/api/v1/plans/runbook?format=html", {
    data: JSON.parse(file("plan.json")).plan.platform,
  });
  expect(platformResponse.ok()).toBe(true);
  await page.setContent(await platformResponse.text());
  await page.pdf({ path: `${SCREENSHOTS}runbook-handover.pdf`, format: "A4" });
});

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`the hand-over step is accessible at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await fillHandover(page);
    await expectAccessible(page, `hand-over ${name}`);
    await screenshot(page, `handover-${name}`);
    await page.getByLabel("Path 1: host address").fill("192.168.10.11");
    await expect(page.getByText("use the address with its prefix length, such as 192.168.10.11/24")).toBeVisible();
  });
}

test("FSx for ONTAP over one path: no answer is asked that would land in no file, and the page says why", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-fsxn");
  await page.getByRole("button", { name: "6. Hand-over & sizing" }).click();
  await expect(page.getByLabel("SVM (vserver) name")).toBeVisible();
  await expect(page.getByLabel("FSx SVM id")).toBeVisible();
  for (const hidden of ["Aggregate", "Broadcast domain", "Path 1: filer port", "Path 1: filer address"]) {
    await expect(page.getByLabel(hidden)).toHaveCount(0);
  }
  await expect(page.getByText(/With one path the hosts reach the filer by its name, fsx-ora01/)).toBeVisible();
  await expect(page.getByText(/The service manages its own network interfaces/)).toBeVisible();
  await page.getByLabel("FSx SVM id").fill("svm-12");
  await expect(page.getByText("use the SVM's id as FSx shows it: svm- and 17 hexadecimal digits")).toBeVisible();
  await page.getByLabel("FSx SVM id").fill("svm-0123456789abcdef0");
  await expect(page.getByText("use the SVM's id as FSx shows it")).toHaveCount(0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("group", { name: "Storage path 1" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`fsx-handover-${width}.png`) });
  }
  // The vendor's whole name shows in its select (it was cut in a half-width column), and a
  // managed service has no filer interface to ask for.
  await page.getByRole("button", { name: "4. Storage" }).click();
  await expect(page.getByLabel("Filer NFS interface")).toHaveCount(0);
  const vendor = page.getByLabel("Storage vendor");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const fits = await vendor.evaluate((select: HTMLSelectElement) => {
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(select).font;
      probe.style.position = "absolute";
      probe.textContent = select.selectedOptions[0]?.textContent ?? "";
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return needed <= select.clientWidth - 24;
    });
    expect(fits, `vendor name fits at ${width} px`).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`fsx-storage-${width}.png`) });
  }
});

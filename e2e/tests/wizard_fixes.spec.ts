import { expect, test } from "@playwright/test";
import { expectAccessible, waitForPlan } from "./helpers";

test("Direct NFS before 11g is unticked and disabled, with the reason", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-linux-ontap");
  await waitForPlan(page);
  await page.getByRole("button", { name: "3. Oracle" }).click();
  const dnfs = page.getByLabel("Direct NFS (dNFS)");
  await expect(dnfs).toBeChecked();
  await page.getByLabel("Oracle release").fill("10.2.0.4");
  await expect(dnfs).toBeDisabled();
  await expect(dnfs).not.toBeChecked();
  await expect(page.getByText("Not available: Direct NFS needs Oracle 11g Release 1 or later.")).toBeVisible();
  await waitForPlan(page);
  await expect(page.getByText(/Direct NFS does not exist in Oracle/)).toHaveCount(0);
  await page.getByLabel("Oracle release").fill("11.2.0.4");
  await expect(dnfs).toBeEnabled();
});

test("the preset picker shows the chosen preset until an answer changes", async ({ page }) => {
  await page.goto("/");
  const picker = page.getByLabel("Start from a preset");
  await picker.selectOption("current-rac");
  await waitForPlan(page);
  await expect(picker).toHaveValue("current-rac");
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill("4");
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option:checked")).toHaveText("Your own answers, or start from a preset");
});

test("Next puts the keyboard on the new step's first field; the review counts findings", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3322-lab");
  await waitForPlan(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByLabel("NIC speed")).toBeFocused();
  await page.getByRole("button", { name: "7. Review" }).click();
  await expect(page.getByTestId("review-counts")).toHaveText(/The plan: 0 error\(s\) · \d+ warning\(s\) · 4 mount\(s\) · 4 volume\(s\)/);
});

test("the plan starts with the verdict and the decisions that matter", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-rac");
  await waitForPlan(page);
  const glance = page.getByRole("region", { name: "At a glance" });
  await expect(glance.getByTestId("verdict")).toHaveText("0 error(s) · 6 warning(s) · 5 mount(s) · 5 volume(s)");
  await expect(glance.getByText("Direct NFS over 2 paths (NFSv3), 256 KB transfers")).toBeVisible();
  await expect(glance.getByText(/NFS transfer size with clustered ONTAP: the plan follows/)).toBeVisible();
});

test("the Solaris 9 lab at a glance: its direct I/O choices; changes of advice lead and are not repeated in the notes", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3322-lab");
  await waitForPlan(page);
  const glance = page.getByRole("region", { name: "At a glance" });
  await expect(glance.getByText("Redo and control files on their own mount with forcedirectio")).toBeVisible();
  await expect(glance.getByText("Datafiles with forcedirectio")).toBeVisible();
  await expect(glance.getByText("ORACLE_HOME on the filer, its own mount at /u01/app/oracle, without forcedirectio")).toBeVisible();
  await expect(glance.getByText(/Advice changed on 2009-05-01: “Minimal read-ahead \(minra on\)/)).toBeVisible();
  const notes = page.locator("details").filter({ has: page.locator("summary", { hasText: /^Notes \(\d+\)$/ }) });
  await page.getByText(/^Notes \(\d+\)$/).click();
  await expect(notes).toContainText("The 2 changes of earlier advice are under At a glance.");
  await expect(notes.getByText(/^Advice changed on/)).toHaveCount(0);
});

test("the first page says what nasplan does and calls its opening answers examples", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByText(/nasplan plans an Oracle database on NFS storage/)).toBeVisible();
  await expect(page.getByText(/Start from a preset, or answer the steps/)).toBeVisible();
  const picker = page.getByLabel("Start from a preset");
  await expect(picker.locator("option:checked")).toHaveText("Example answers, or choose a preset");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`first-run-${width}.png`) });
  }
  await expect(page.getByTestId("example-note")).toHaveText(/an example platform, not advice/);
  await page.getByLabel("Memory per host (GB)").fill("64");
  await expect(picker.locator("option:checked")).toHaveText("Your own answers, or start from a preset");
  await expect(page.getByTestId("example-note")).toHaveCount(0);
});

test("an answer to fix keeps the download buttons, disabled with the reason", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-linux-ontap");
  await waitForPlan(page);
  const download = page.getByRole("button", { name: "Download config bundle (.zip)" });
  await expect(download).toBeEnabled();
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill("x");
  await expect(download).toBeDisabled();
  await expect(page.getByText("The files wait for the answers the plan still needs")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("exports-paused-1440.png") });
  await page.getByLabel("Storage NICs per host").fill("2");
  await expect(download).toBeEnabled();
});

test("a wrong optional answer is left out with a note: the plan, Save and the downloads stay", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-linux-ontap");
  await waitForPlan(page);
  const download = page.getByRole("button", { name: "Download config bundle (.zip)" });
  await page.getByLabel("Storage NIC interface").fill("eth 0");
  const summary = page.getByTestId("plan-summary");
  await expect(summary.getByTestId("left-out")).toContainText("corrected (the field says how; nothing else waits for it): Storage NIC interface.");
  await expect(page.getByLabel("Storage NIC interface")).toHaveAttribute("aria-invalid", "true");
  await expect(download).toBeEnabled();
  await expect(page.getByText("Plan paused")).toHaveCount(0);
  // The plan and its files are made without the wrong answer, never with it.
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^nasplan-.*\.zip$/);
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByLabel("Design name").fill("left out");
  await expect(page.getByRole("button", { name: "Save design" })).toBeEnabled();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`left-out-${width}.png`) });
  }
  await expectAccessible(page, "wizard with an answer left out");
});

test("a missing answer is flagged only once the user has been to its step", async ({ page }) => {
  await page.goto("/");
  await waitForPlan(page);
  await page.getByRole("button", { name: "4. Storage" }).click();
  await page.getByLabel("Storage vendor").selectOption("aws_fsxn");
  const throughput = page.getByLabel("Throughput capacity per HA pair (MBps)");
  await expect(throughput).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("choose the file system's throughput capacity")).toHaveCount(0);
  const summary = page.getByTestId("plan-summary");
  await expect(summary).toContainText("The plan waits for 1 answer: Throughput capacity per HA pair.");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("button", { name: /4\. Storage.*needs a fix/ })).toBeVisible();
  await page.getByRole("button", { name: /4\. Storage/ }).click();
  await expect(page.getByText("choose the file system's throughput capacity")).toBeVisible();
  await throughput.selectOption("1024");
  await expect(summary).toContainText(/\d+ errors? · \d+ warnings? · \d+ mounts? · \d+ volumes?/);
});

test("the plan summary stays in view beside the steps, and under them on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/");
  await waitForPlan(page);
  const summary = page.getByTestId("plan-summary");
  // On a phone the plan starts far below; the summary is in view from the first screen.
  await expect(summary).toBeInViewport();
  await expect(page.getByRole("heading", { name: "At a glance" })).not.toBeInViewport();
  await summary.getByRole("button", { name: "See the plan" }).click();
  await expect(page.getByRole("region", { name: "Plan" })).toBeFocused();
  await expect(page.getByLabel("Advice as of")).toBeInViewport();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 2500));
  await expect(summary).toBeInViewport();
});

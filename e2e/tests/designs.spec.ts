import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAccessible, expectTr3322Mounts, fillTr3322, screenshot, waitForPlan, WIDTHS } from "./helpers";

async function saveDesign(page: Page, name: string) {
  await page.goto("/");
  await fillTr3322(page);
  await waitForPlan(page);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Design name").fill(name);
  await page.getByRole("button", { name: "Save design" }).click();
  const links = page.getByRole("region", { name: "Saved design links" });
  await expect(links).toBeVisible();
  const codes = await links.locator("code").allTextContents();
  const [permalink, editLink, reviewLink] = codes;
  if (!permalink || !editLink || !reviewLink) throw new Error("links missing");
  return { permalink, editLink, reviewLink };
}

async function mountLines(page: Page): Promise<string[]> {
  return page.locator("[data-testid^=mount-] pre").allTextContents();
}

test("3-4. save, open the permalink elsewhere, approve, revise; revision 1 stays approved", async ({ page, browser }) => {
  const { permalink, editLink, reviewLink } = await saveDesign(page, "PROD to NAS");
  expect(editLink).toContain("#edit=");
  expect(reviewLink).toContain("#review=");
  const planned = await mountLines(page);

  // 3. A fresh browser context (no cookies, no storage) sees the same plan.
  const other = await browser.newContext();
  const reader = await other.newPage();
  await reader.goto(permalink);
  await expect(reader.getByRole("heading", { name: "PROD to NAS" })).toBeVisible();
  await expectTr3322Mounts(reader);
  expect(await mountLines(reader)).toEqual(planned);
  await expect(reader.getByRole("button", { name: "Edit (new revision)" })).toHaveCount(0);
  await other.close();

  // 4. Approve with the review link.
  await page.goto(reviewLink);
  await page.getByLabel("Reviewer").fill("DBA lead");
  await page.getByLabel("Decision").selectOption("approve");
  await page.getByLabel("Comment").fill("Matches TR-3322.");
  await page.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");

  // Edit with the edit link: one NIC instead of two.
  await page.goto(editLink);
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill("1");
  await page.getByRole("button", { name: "6. Review" }).click();
  await page.getByRole("button", { name: "Save as revision 2" }).click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  await expect(page.getByTestId("revision-status")).toHaveText("draft");
  await expect(page.getByTestId("design-state")).toHaveText("draft (r1 approved)");

  // Revision 1 is still approved, and the diff shows what changed.
  const compare = page.getByRole("region", { name: "Compare revisions" });
  await expect(compare.getByRole("region", { name: "What changed" })).toContainText("NET-MULTIPATH-SCALING");
  await page.getByRole("link", { name: "Revision 1", exact: true }).click();
  await expect(page.getByTestId("revision-status")).toHaveText("approved");
  await expect(page.getByText("Matches TR-3322.")).toBeVisible();
});

test("5. bundle and runbook downloads carry the plan", async ({ page }) => {
  const { editLink } = await saveDesign(page, "Files check");
  await page.goto(editLink);
  const files = page.getByRole("region", { name: "Files" });
  const [zip] = await Promise.all([
    page.waitForEvent("download"),
    files.getByRole("button", { name: "Download config bundle (.zip)" }).click(),
  ]);
  const zipBytes = readFileSync(await zip.path());
  expect(zipBytes.subarray(0, 2).toString()).toBe("PK");
  const names = zipBytes.toString("latin1");
  for (const part of ["host/vfstab.add", "filer/commands.txt", "oracle/init.ora.add", "verify/", "rollback/", "plan.json", "RUNBOOK.md"]) {
    expect(names).toContain(part);
  }
  const [runbook] = await Promise.all([
    page.waitForEvent("download"),
    files.getByRole("button", { name: "Runbook (Markdown)" }).click(),
  ]);
  const text = readFileSync(await runbook.path(), "utf8");
  expect(text).toContain("# Runbook");
  expect(text).toContain("NTAP-MINRA-OFF");
  expect(text).toContain("forcedirectio");
  const designId = new URL(editLink).pathname.split("/")[2] ?? "";
  expect(text).toContain(designId);
});

test("text a user types is shown as text, never run", async ({ page }) => {
  let alerted = false;
  page.on("dialog", async (dialog) => {
    alerted = true;
    await dialog.dismiss();
  });
  const hostile = "<img src=x onerror=alert(1)>";
  const { permalink } = await saveDesign(page, hostile);
  await page.goto(permalink);
  await expect(page.getByRole("heading", { name: hostile })).toBeVisible();
  await page.waitForTimeout(300);
  expect(alerted).toBe(false);
  expect(await page.locator("img[src=x]").count()).toBe(0);
});

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`design page is accessible at ${name} width`, async ({ page }) => {
    const { reviewLink } = await saveDesign(page, `Layout ${name}`);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(reviewLink);
    await expect(page.getByRole("heading", { name: `Layout ${name}` })).toBeVisible();
    await expectAccessible(page, `design ${name}`);
    await screenshot(page, `design-${name}`);
  });
}

test("an unknown design shows a readable error", async ({ page }) => {
  await page.goto("/d/doesnotexist1234567890");
  await expect(page.getByRole("alert")).toContainText("no design");
});

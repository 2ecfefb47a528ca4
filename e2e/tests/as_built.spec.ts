import { expect, test } from "@playwright/test";
import { createDesignFromPreset, expectAccessible } from "./helpers";

test("as built: a host's verify report is recorded against the revision, item by item", async ({ page }) => {
  const created = await createDesignFromPreset(page, "current-linux-ontap", "Built system");

  // Read-only visitors see the record but cannot add to it.
  await page.goto(`/d/${created.id}`);
  const card = page.getByRole("region", { name: "As built" });
  await expect(card.getByText("No host has reported yet.")).toBeVisible();
  await expect(card.getByText("Open the design's edit link to record what a host reports.")).toBeVisible();

  await page.goto(`/d/${created.id}#edit=${created.edit_token}`);
  const report = [
    "# nasplan verify report, PROD",
    "# host: oradb01",
    "PASS /u02/oradata/PROD: rw",
    "FAIL /u02/oradata/PROD: rsize=262144 missing (shown: rw,rsize=65536)",
    "summary: 1 PASS, 1 FAIL, 0 CHECK",
  ].join("\n");
  await card.getByLabel(/Report from/).fill(report);
  await card.getByRole("button", { name: "Record as built" }).click();
  const check = card.getByTestId("as-built-check");
  await expect(check).toContainText("oradb01");
  await expect(check).toContainText("1 verified");
  await expect(check).toContainText("1 differs");
  await check.getByText("Each item").click();
  await expect(check.getByText("found: /u02/oradata/PROD: rsize=262144 missing (shown: rw,rsize=65536)")).toBeVisible();
  await expectAccessible(page, "design page with an as-built check");
});

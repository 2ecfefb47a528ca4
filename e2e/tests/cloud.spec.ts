import { expect, test } from "@playwright/test";
import { expectAccessible, waitForPlan } from "./helpers";

test("Azure NetApp Files: service level and capacity set the ceiling the plan expects", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-anf");
  await waitForPlan(page);
  await expect(page.getByText(/Service level: the provisioned capacity and service level allow about 537 MB\/s/)).toBeVisible();
  await page.getByRole("button", { name: "4. Storage" }).click();
  await expect(page.getByLabel("Service level")).toHaveValue("premium");
  await page.getByLabel("Provisioned capacity (TiB)").fill("0");
  await expect(page.getByText("the provisioned capacity in TiB must be more than 0 and at most 2048")).toBeVisible();
  await page.getByLabel("Provisioned capacity (TiB)").fill("16");
  await expect(page.getByText(/allow about 1074 MB\/s/)).toBeVisible();
  await expectAccessible(page, "wizard with Azure NetApp Files");
});

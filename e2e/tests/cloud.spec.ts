import { expect, test } from "@playwright/test";
import { expectAccessible, waitForPlan } from "./helpers";

test("Azure NetApp Files: service level and capacity set the ceiling the plan expects", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-anf");
  await waitForPlan(page);
  await expect(page.getByText(/Service level: the provisioned capacity and service level allow about 537 MB\/s/)).toBeVisible();
  // The layout diagram names the service and draws the provider's network, not switches.
  const diagram = page.getByRole("img", { name: "Layout diagram" });
  await expect(diagram).toContainText("Azure NetApp Files");
  await expect(diagram).toContainText("the provider's network");
  await expect(diagram).not.toContainText("azure_anf");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const layout = page.getByRole("heading", { name: "Layout" }).locator("..");
    await layout.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`anf-layout-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole("button", { name: "4. Storage" }).click();
  await expect(page.getByLabel("Service level")).toHaveValue("premium");
  await page.getByLabel("Provisioned capacity (TiB)").fill("0");
  await expect(page.getByText("the provisioned capacity in TiB must be more than 0 and at most 2048")).toBeVisible();
  await page.getByLabel("Provisioned capacity (TiB)").fill("16");
  await expect(page.getByText(/allow about 1074 MB\/s/)).toBeVisible();
  await expectAccessible(page, "wizard with Azure NetApp Files");
});

test("Azure NetApp Files: the Filer tab shows the pool and volumes as Terraform and az lines", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-anf");
  await waitForPlan(page);
  await page.getByRole("button", { name: "Preview the files" }).click();
  await page.getByRole("tab", { name: /^Filer/ }).click();
  const files = page.getByRole("list", { name: "Files" });
  const code = page.locator("pre code.hljs");
  await files.getByRole("button", { name: "terraform/anf.tf.json" }).click();
  await expect(code).toContainText('"azurerm_netapp_pool"');
  await expect(code).toContainText('"volume_path": "prod-data"');
  await files.getByRole("button", { name: "filer/az_netappfiles.txt" }).click();
  await expect(code).toContainText("az netappfiles volume create");
  await files.getByRole("button", { name: "terraform/anf.tf.json" }).click();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("heading", { name: "terraform/anf.tf.json" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`anf-terraform-${width}.png`) });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
});

test("a cloud NAS service asks no switch, router or jumbo-frame question", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("current-linux-ontap");
  await waitForPlan(page);
  await page.getByRole("button", { name: "2. Network" }).click();
  await expect(page.getByLabel("Switch type")).toBeVisible();
  await expect(page.getByLabel("Jumbo frames (MTU 9000)")).toBeChecked();
  await page.getByRole("button", { name: "4. Storage" }).click();
  await page.getByLabel("Storage vendor").selectOption("azure_anf");
  await page.getByRole("button", { name: "2. Network" }).click();
  await expect(page.getByText(/the network to the service is the cloud provider's/)).toBeVisible();
  for (const label of ["Switch type", "Switches on the path", "Routers on the path", "Jumbo frames (MTU 9000)"]) {
    await expect(page.getByLabel(label)).toHaveCount(0);
  }
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`cloud-network-${width}.png`) });
  }
  // Back on an appliance the jumbo-frame answer is off: it was cleared, not kept out of sight.
  await page.getByRole("button", { name: "4. Storage" }).click();
  await page.getByLabel("Storage vendor").selectOption("netapp");
  await page.getByRole("button", { name: "2. Network" }).click();
  await expect(page.getByLabel("Jumbo frames (MTU 9000)")).not.toBeChecked();
  await expectAccessible(page, "network step");
});

import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

export const SCREENSHOTS = new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(SCREENSHOTS, { recursive: true });

export const WIDTHS = { desktop: 1280, phone: 390 } as const;

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${where}: ${v.id} (${v.impact}) on ${v.nodes.length} node(s): ${v.help}`)).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

export async function waitForPlan(page: Page): Promise<void> {
  await expect(page.getByText(/^Knowledge base \d+\.\d+\.\d+, advice as of/)).toBeVisible();
}

/** Fill the wizard for TR-3322's lab platform by choosing and typing every answer. */
export async function fillTr3322(page: Page): Promise<void> {
  await page.getByLabel("Operating system").selectOption("solaris");
  await page.getByLabel("Release").selectOption("9u5");
  await page.getByLabel("Processor architecture").selectOption("sparc");
  await page.getByLabel("Memory per host (GB)").fill("48");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByLabel("NIC speed").selectOption("1");
  await page.getByLabel("Storage NICs per host").fill("2");
  await page.getByLabel("Switch type").selectOption("store_and_forward");
  await page.getByLabel("Switches on the path").fill("0");
  await page.getByLabel("Routers on the path").fill("0");
  await page.getByLabel("Jumbo frames (MTU 9000)").check();
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByLabel("Oracle release").fill("9.2.0.4");
  await page.getByLabel("Binaries").selectOption("64");
  await page.getByLabel("Workload").selectOption("oltp");
  await page.getByLabel("NFS version").selectOption("3");
  await page.getByLabel("Direct NFS (dNFS)").uncheck();
  await page.getByLabel("Real Application Clusters (RAC)").uncheck();
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByLabel("Storage vendor").selectOption("netapp");
  await page.getByLabel("Model").fill("FAS940");
  await page.getByLabel("Software release").fill("7.0");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByLabel("Filer host name").fill("filer01");
  await page.getByLabel("Database name (DB_NAME)").fill("PROD");
  await page.getByLabel("ORACLE_HOME").selectOption("nas");
}

export async function expectTr3322Mounts(page: Page): Promise<void> {
  const redo = page.getByTestId("mount-redo");
  const home = page.getByTestId("mount-oracle_home");
  await expect(redo.locator("pre")).toContainText("forcedirectio");
  await expect(redo.locator("pre")).toContainText("filer01:/vol/prod_redo");
  await expect(home.locator("pre")).toContainText("/u01/app/oracle");
  await expect(home.locator("pre")).not.toContainText("forcedirectio");
}

/** Save a design of a preset through the API: its id and its edit and review tokens. */
export async function createDesignFromPreset(
  page: Page,
  preset: string,
  name: string,
): Promise<{ id: string; edit_token: string; review_token: string }> {
  const catalog = (await (await page.request.get("/api/v1/catalog")).json()) as { presets: { id: string; platform: unknown }[] };
  const platform = catalog.presets.find((p) => p.id === preset)?.platform;
  const response = await page.request.post("/api/v1/designs", { data: { name, platform } });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; edit_token: string; review_token: string };
}

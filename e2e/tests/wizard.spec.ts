import { expect, test } from "@playwright/test";
import { expectAccessible, expectTr3322Mounts, fillTr3322, screenshot, waitForPlan, WIDTHS } from "./helpers";

test("1. the TR-3322 lab platform: forcedirectio on redo, never on ORACLE_HOME", async ({ page }) => {
  await page.goto("/");
  await fillTr3322(page);
  await waitForPlan(page);
  await expectTr3322Mounts(page);
  await expect(page.getByText("/etc/vfstab", { exact: false }).first()).toBeVisible();
  // The answers survive a reload: they live in the URL.
  await page.reload();
  await expectTr3322Mounts(page);
  await expect(page.getByLabel("Filer host name")).toHaveValue("filer01");
});

test("2. advice as of 2005 says minra on; today says off and explains the reversal", async ({ page }) => {
  await page.goto("/");
  await fillTr3322(page);
  await waitForPlan(page);
  await page.getByRole("button", { name: "2005" }).click();
  const minra = page.getByTestId("setting-minra");
  await expect(minra).toContainText(/minra\s*=\s*on/);
  await expect(page.getByRole("region", { name: "What changed" })).toContainText("minra");
  await page.getByRole("button", { name: "Today" }).click();
  await expect(minra).toContainText(/minra\s*=\s*off/);
  const changes = page.getByRole("region", { name: "What changed" });
  await expect(changes).toContainText("superseded by NTAP-MINRA-OFF");
  await expect(minra).toHaveClass(/changed-item/);
  await minra.getByText("Why?").click();
  await expect(minra).toContainText("Replaces earlier advice NTAP-MINRA-ON-OLTP");
  await expect(minra).toContainText("6.5.1");
});

test("6. a host name with a space shows an inline error and is never sent; the plan goes on without it", async ({ page }) => {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/v1/")) sent.push(request.postData() ?? "");
  });
  await page.goto("/");
  await waitForPlan(page);
  await page.getByLabel("Database host name").fill("db host");
  await expect(page.getByText(/no spaces/)).toBeVisible();
  await expect(page.getByLabel("Database host name")).toHaveAttribute("aria-invalid", "true");
  // An optional answer: the plan is made without it, and the summary says it was left out.
  await expect(page.getByTestId("left-out")).toContainText("Database host name");
  await expect(page.getByText("Plan paused: answers need a fix")).toHaveCount(0);
  await page.waitForTimeout(600);
  expect(sent.filter((body) => body.includes("db host"))).toEqual([]);
  await page.getByLabel("Database host name").fill("dbhost");
  await expect(page.getByText(/no spaces/)).toHaveCount(0);
});

test("7. keyboard only: the TR-3322 platform without the mouse", async ({ page }) => {
  await page.goto("/");
  await waitForPlan(page);
  const focusedLabel = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return "";
      const id = element.getAttribute("id");
      const label = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`)?.textContent : null;
      return (label ?? element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
    });
  async function tabTo(name: string) {
    // Next puts the keyboard on the new step's first field: it may already be there.
    if ((await focusedLabel()) === name) return;
    for (let i = 0; i < 80; i += 1) {
      await page.keyboard.press("Tab");
      if ((await focusedLabel()) === name) return;
    }
    throw new Error(`could not reach ${name} with Tab`);
  }
  async function choose(name: string, value: string) {
    await tabTo(name);
    // Type-ahead: typing an option's label selects it in a focused select.
    const label = await page.evaluate((wanted) => {
      const select = document.activeElement as HTMLSelectElement;
      return Array.from(select.options).find((o) => o.value === wanted)?.label ?? "";
    }, value);
    await page.keyboard.type(label);
    expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).toBe(value);
  }
  async function typeInto(name: string, text: string) {
    await tabTo(name);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(text);
  }
  async function setCheck(name: string, wanted: boolean) {
    await tabTo(name);
    const checked = await page.evaluate(() => (document.activeElement as HTMLInputElement).checked);
    if (checked !== wanted) await page.keyboard.press("Space");
  }
  async function next() {
    await tabTo("Next");
    const stepLine = page.getByText(/^Step \d of \d+:/);
    const before = await stepLine.textContent();
    await page.keyboard.press("Enter");
    // The step changes through the router, then the new step's first field takes the keyboard:
    // tabbing before both have happened would start from the old Next button.
    await expect(stepLine).not.toHaveText(before ?? "");
    await expect.poll(focusedLabel).not.toBe("Next");
  }

  await choose("Operating system", "solaris");
  await choose("Release", "9u5");
  await choose("Processor architecture", "sparc");
  await next();
  await choose("NIC speed", "1");
  await typeInto("Storage NICs per host", "2");
  await typeInto("Switches on the path", "0");
  await setCheck("Jumbo frames (MTU 9000)", true);
  await next();
  await typeInto("Oracle release", "9.2.0.4");
  // Direct NFS does not exist in 9.2: the wizard unticks it and takes it out of the tab order.
  await expect(page.getByLabel("Direct NFS (dNFS)")).toBeDisabled();
  await expect(page.getByLabel("Direct NFS (dNFS)")).not.toBeChecked();
  await next();
  await choose("Storage vendor", "netapp");
  await typeInto("Software release", "7.0");
  await next();
  await typeInto("Filer host name", "filer01");
  await typeInto("Database name (DB_NAME)", "PROD");
  await choose("ORACLE_HOME", "nas");
  await waitForPlan(page);
  await expectTr3322Mounts(page);
});

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`wizard and plan pages are accessible at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await fillTr3322(page);
    await waitForPlan(page);
    await expectAccessible(page, `wizard ${name}`);
    await screenshot(page, `wizard-${name}`);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByRole("heading", { name: "Hand-over & sizing" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
    await expectAccessible(page, `review ${name}`);
    await screenshot(page, `review-${name}`);
  });
}

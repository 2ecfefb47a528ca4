import { expect, test, type Page } from "@playwright/test";
import { saveDesign as saveThroughWizard } from "./designSteps";
import { SCREENSHOTS, createDesignFromPreset, expectAccessible, screenshot } from "./helpers";

// "Your designs": the designs saved or opened in this browser, kept in localStorage.
const KEY = "nasplan-your-designs";

/** Save a design through the wizard: its id and its two tokens, read from the links shown. */
async function saveDesign(page: Page, name: string) {
  const { permalink, editLink, reviewLink } = await saveThroughWizard(page, name);
  const id = new URL(permalink).pathname.split("/")[2] ?? "";
  const editToken = new URLSearchParams(new URL(editLink).hash.slice(1)).get("edit") ?? "";
  const reviewToken = new URLSearchParams(new URL(reviewLink).hash.slice(1)).get("review") ?? "";
  expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(editToken.length).toBeGreaterThan(16);
  return { id, editToken, reviewToken };
}

async function storedValue(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), KEY);
}

function row(page: Page, name: string) {
  return page.getByTestId("your-design").filter({ has: page.getByRole("link", { name, exact: true }) });
}

test("a saved design is listed in Your designs, kept across a reload, without its tokens, until forgotten", async ({ page }) => {
  const { id, editToken, reviewToken } = await saveDesign(page, "Kept PROD");
  const remember = page.getByLabel("Remember the edit link on this browser");
  await expect(remember).not.toBeChecked();
  await expect(page.getByText("Anyone using this browser profile could then edit the design.")).toBeVisible();

  const stored = await storedValue(page);
  expect(stored).toContain(id);
  expect(stored).toContain("Kept PROD");
  expect(stored).not.toContain(editToken);
  expect(stored).not.toContain(reviewToken);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your designs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your designs" })).toBeVisible();
  await expect(page.getByText("This list lives only in this browser")).toBeVisible();
  const entry = row(page, "Kept PROD");
  await expect(entry).toContainText(id);
  await expect(entry).toContainText(/last saved or opened \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  await expect(entry.getByRole("link", { name: "Kept PROD" })).toHaveAttribute("href", `/d/${id}`);

  await page.reload();
  await expect(row(page, "Kept PROD")).toBeVisible();
  await row(page, "Kept PROD").getByRole("link", { name: "Kept PROD" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kept PROD" })).toBeVisible();
  // Opened without an edit link: read-only.
  await expect(page.getByRole("button", { name: "Edit (new revision)" })).toHaveCount(0);

  await page.goto("/designs");
  await page.getByRole("button", { name: "Forget Kept PROD" }).click();
  await expect(page.getByRole("status")).toHaveText("Forgot “Kept PROD”.");
  await expect(row(page, "Kept PROD")).toHaveCount(0);
  expect((await storedValue(page)) ?? "").not.toContain(id);
  await page.reload();
  await expect(page.getByText(/^No designs here yet/)).toBeVisible();
});

test("the edit link is kept only when the box is ticked, and can be forgotten again", async ({ page }) => {
  const { id, editToken, reviewToken } = await saveDesign(page, "Editable");
  const remember = page.getByLabel("Remember the edit link on this browser");
  await remember.check();
  await expect(remember).toBeChecked();
  expect(await storedValue(page)).toContain(editToken);
  await remember.uncheck();
  expect(await storedValue(page)).not.toContain(editToken);
  await remember.check();
  const stored = await storedValue(page);
  expect(stored).toContain(editToken);
  expect(stored).not.toContain(reviewToken);

  await page.goto("/designs");
  const entry = row(page, "Editable");
  await expect(entry).toContainText("edit link remembered");
  await expect(entry.getByRole("link", { name: "Editable" })).toHaveAttribute("href", `/d/${id}#edit=${editToken}`);
  await entry.getByRole("link", { name: "Editable" }).click();
  await expect(page.getByRole("button", { name: "Edit (new revision)" })).toBeVisible();

  // Opening the design again keeps the remembered link; forgetting it keeps the design.
  await page.goto("/designs");
  await page.getByRole("button", { name: "Forget the edit link of Editable" }).click();
  await expect(row(page, "Editable").getByRole("link", { name: "Editable" })).toHaveAttribute("href", `/d/${id}`);
  expect(await storedValue(page)).not.toContain(editToken);
  await expect(row(page, "Editable")).not.toContainText("edit link remembered");
});

test("a design opened by its link is listed, and an edit link in the address is not stored", async ({ page }) => {
  await page.goto("/designs");
  await expect(page.getByText(/^No designs here yet/)).toBeVisible();
  const { id, edit_token } = await createDesignFromPreset(page, "tr3322-lab", "Opened by link");
  await page.goto(`/d/${id}#edit=${edit_token}`);
  await expect(page.getByRole("heading", { level: 1, name: "Opened by link" })).toBeVisible();
  await expect.poll(() => storedValue(page)).toContain(id);
  expect(await storedValue(page)).not.toContain(edit_token);
  await page.goto("/designs");
  await expect(row(page, "Opened by link").getByRole("link", { name: "Opened by link" })).toHaveAttribute("href", `/d/${id}`);
});

test("a malformed stored value does not break the page, and hostile names stay text", async ({ page }) => {
  let alerted = false;
  page.on("dialog", async (dialog) => {
    alerted = true;
    await dialog.dismiss();
  });
  await page.goto("/designs");
  for (const garbage of ["{not json", "[1,2,3]", JSON.stringify({ version: 1, designs: "no" }), "x".repeat(200_000)]) {
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [KEY, garbage] as const);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Your designs" })).toBeVisible();
    await expect(page.getByText(/^No designs here yet/)).toBeVisible();
  }

  const hostile = "<img src=x onerror=alert(1)>";
  const good = { id: "AbCdEfGhIjKlMnOpQrStUv", name: hostile, lastOpened: "2026-11-01T10:00:00.000Z" };
  const mixed = {
    version: 1,
    designs: [
      null,
      { ...good, id: "../../api/v1/health" },
      { ...good, id: "javascript:alert(1)" },
      { ...good, name: "x".repeat(500) },
      { ...good, lastOpened: "not a date" },
      { ...good, editToken: "\"><script>alert(1)</script>" },
      good,
    ],
  };
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [KEY, JSON.stringify(mixed)] as const);
  await page.reload();
  await expect(page.getByTestId("your-design")).toHaveCount(1);
  await expect(page.getByRole("link", { name: hostile })).toHaveAttribute("href", `/d/${good.id}`);
  await page.waitForTimeout(300);
  expect(alerted).toBe(false);
  expect(await page.locator("img[src=x]").count()).toBe(0);

  // Recording a design over a malformed value still works: the bad entries are dropped.
  const { id } = await createDesignFromPreset(page, "tr3322-lab", "After garbage");
  await page.goto(`/d/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "After garbage" })).toBeVisible();
  await page.goto("/designs");
  await expect(page.getByTestId("your-design")).toHaveCount(2);
  const stored = (await storedValue(page)) ?? "";
  expect(stored).not.toContain("javascript:");
  expect(stored).not.toContain("<script>");
});

test("Forget all asks first, then empties the list", async ({ page }) => {
  for (const name of ["One", "Two"]) {
    const { id } = await createDesignFromPreset(page, "tr3322-lab", name);
    await page.goto(`/d/${id}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  }
  await page.goto("/designs");
  await expect(page.getByTestId("your-design")).toHaveCount(2);
  await page.getByRole("button", { name: "Forget all" }).click();
  await expect(page.getByRole("button", { name: "Yes, forget all" })).toBeFocused();
  await page.getByRole("button", { name: "Keep them" }).click();
  await expect(page.getByTestId("your-design")).toHaveCount(2);
  await page.getByRole("button", { name: "Forget all" }).click();
  await page.getByRole("button", { name: "Yes, forget all" }).click();
  await expect(page.getByText(/^No designs here yet/)).toBeVisible();
  expect(await storedValue(page)).toBeNull();
});

test("Your designs fits a phone and a wide screen, light and dark, and passes axe", async ({ page }) => {
  const { editToken } = await saveDesign(page, "PROD on filer01, the long-lived production database");
  await page.getByLabel("Remember the edit link on this browser").check();
  const { id } = await createDesignFromPreset(page, "tr3322-lab", "Reporting replica");
  await page.goto(`/d/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Reporting replica" })).toBeVisible();
  expect(editToken).not.toBe("");

  for (const theme of ["light", "dark"] as const) {
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto("/designs");
      await page.getByLabel("Theme").selectOption(theme);
      await expect(page.getByTestId("your-design")).toHaveCount(2);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll, `Your designs at ${width} px overflows sideways`).toBeLessThanOrEqual(widths.client);
      await expectAccessible(page, `Your designs, ${theme}, ${width} px`);
      await screenshot(page, `your-designs-${theme}-${width}`);
      await page.getByRole("button", { name: "Forget all" }).click();
      await expectAccessible(page, `Forget all question, ${theme}, ${width} px`);
      await page.getByRole("button", { name: "Keep them" }).click();
    }
  }
  await page.evaluate((key) => localStorage.removeItem(key), KEY);
  await page.reload();
  await expect(page.getByText(/^No designs here yet/)).toBeVisible();
  await expectAccessible(page, "empty Your designs");
  await screenshot(page, "your-designs-empty-dark-390");
});

test("the saved design's links and the remember box pass axe, light and dark", async ({ page }) => {
  await saveDesign(page, "Saved box");
  for (const theme of ["light", "dark"] as const) {
    await page.getByLabel("Theme").selectOption(theme);
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      const box = page.getByLabel("Remember the edit link on this browser");
      await expect(box).toBeVisible();
      await expectAccessible(page, `saved links, ${theme}, ${width} px`);
      await box.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}your-designs-saved-${theme}-${width}.png` });
    }
  }
});

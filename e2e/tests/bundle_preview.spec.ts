import { expect, test, type Locator, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAccessible, screenshot, waitForPlan } from "./helpers";

const TITLE = "Files in the config bundle";
// The data volume's vfstab line: 130 characters with its tabs, far wider than a phone.
const DATA_LINE = "filer01:/vol/prod_data\t-\t/u02/oradata/PROD\tnfs\t-\tyes\trw,bg,hard,nointr,rsize=32768,wsize=32768,vers=3,proto=tcp,forcedirectio,suid";

async function openFromWizard(page: Page): Promise<Locator> {
  await page.goto("/");
  await page.getByLabel("Start from a preset").selectOption("tr3322-lab");
  await waitForPlan(page);
  await page.getByRole("button", { name: "Preview the files" }).click();
  const dialog = page.getByRole("dialog", { name: TITLE });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** How many visual lines the given line of the shown file takes (1 unless it wraps). */
async function visualLines(code: Locator, line: string): Promise<number> {
  return code.evaluate((element, wanted) => {
    const text = element.textContent ?? "";
    const start = text.indexOf(wanted);
    if (start < 0) throw new Error("line not shown");
    const end = start + wanted.length;
    const range = document.createRange();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let offset = 0;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0;
      if (start >= offset && start <= offset + length) range.setStart(node, start - offset);
      if (end >= offset && end <= offset + length) {
        range.setEnd(node, end - offset);
        break;
      }
      offset += length;
    }
    const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
    return tops.size;
  }, line);
}

async function expectNoSidewaysPage(page: Page, dialog: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
}

test("the bundle's files can be read before download, by team, each with its own copy", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const dialog = await openFromWizard(page);
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();

  const list = dialog.getByRole("region", { name: "Files in the bundle" });
  for (const team of ["Mount table", "Kernel & network", "Filer", "Oracle", "Scripts", "Other"]) {
    await expect(list.getByRole("heading", { name: new RegExp(`^${team} \\(\\d+\\)$`) })).toBeVisible();
  }
  const code = dialog.locator("pre code.hljs");
  // A team's tab narrows the list to its files and shows the first of them.
  await dialog.getByRole("tab", { name: /^Filer/ }).click();
  await expect(code).toContainText("minra off");
  await expect(list.getByRole("heading", { name: /^Oracle/ })).toHaveCount(0);
  await dialog.getByRole("tab", { name: /^Mount table/ }).click();
  await expect(code).toContainText("forcedirectio");
  // The tabs answer the arrow keys.
  await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByRole("tab", { name: /^All files/ })).toBeFocused();
  await expect(dialog.getByRole("tab", { name: /^All files/ })).toHaveAttribute("aria-selected", "true");
  await expect(list.getByRole("heading", { name: /^Oracle/ })).toBeVisible();

  await list.getByRole("button", { name: "filer/commands.txt" }).click();
  await expect(code).toContainText("minra off");
  const vfstab = list.getByRole("button", { name: "host/vfstab.add" });
  await vfstab.click();
  await expect(vfstab).toHaveAttribute("aria-pressed", "true");
  await expect(code).toContainText("forcedirectio");
  // The one-line description comes from the bundle's own README.md.
  await expect(vfstab).toHaveAccessibleDescription("the lines those scripts add, in the file's own format, for review or manual use");

  // Wide, whatever column the button sits in, and long lines stay whole.
  const box = dialog.getByRole("region", { name: "Text of host/vfstab.add" });
  expect((await box.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(900);
  expect(await visualLines(code, DATA_LINE)).toBe(1);
  await expectNoSidewaysPage(page, dialog);

  // The download here is the same bundle the Download button saves.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download the bundle (.zip)" }).click(),
  ]);
  // The name the download button gives the same zip (the platform and the date of the advice).
  expect(download.suggestedFilename()).toMatch(/^nasplan-prod-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = readFileSync(await download.path());
  expect(zip.subarray(0, 2).toString()).toBe("PK");
  expect(zip.toString("latin1")).toContain("host/vfstab.add");

  await expectAccessible(page, "bundle preview, light");
  await screenshot(page, "bundle-preview-1440-light");

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Preview the files" })).toBeFocused();
});

test("copying a file puts its exact text on the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const dialog = await openFromWizard(page);
  await dialog.getByRole("region", { name: "Files in the bundle" }).getByRole("button", { name: "host/vfstab.add" }).click();
  const shown = (await dialog.locator("pre code.hljs").textContent()) ?? "";
  expect(shown.startsWith("# Lines for /etc/vfstab")).toBe(true);
  expect(shown).toContain(`${DATA_LINE}\n`);

  const copy = dialog.getByRole("button", { name: "Copy host/vfstab.add" });
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  // Another file, another text: the button copies the file it belongs to.
  await dialog.getByRole("button", { name: "oracle/alter_system.sql" }).click();
  await dialog.getByRole("button", { name: "Copy oracle/alter_system.sql" }).click();
  const sql = await page.evaluate(() => navigator.clipboard.readText());
  expect(sql).toContain("ALTER SYSTEM SET");
  expect(sql).toBe((await dialog.locator("pre code.hljs").textContent()) ?? "");
});

test("on a phone: the files first, the text below, scrolling sideways in its own box (dark mode)", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("nasplan-theme", "dark"));
  await page.setViewportSize({ width: 390, height: 844 });
  const dialog = await openFromWizard(page);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

  const list = dialog.getByRole("region", { name: "Files in the bundle" });
  await list.getByRole("button", { name: "host/vfstab.add" }).click();
  const box = dialog.getByRole("region", { name: "Text of host/vfstab.add" });
  const listBox = await list.boundingBox();
  const codeBox = await box.boundingBox();
  expect(listBox && codeBox && listBox.y + listBox.height <= codeBox.y).toBe(true);

  const code = dialog.locator("pre code.hljs");
  expect(await visualLines(code, DATA_LINE)).toBe(1);
  expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  await expectNoSidewaysPage(page, dialog);

  await expectAccessible(page, "bundle preview, phone, dark");
  await screenshot(page, "bundle-preview-390-dark");

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Preview the files" })).toBeFocused();
});

test("from a saved design's narrow Files card the preview is just as wide", async ({ page }) => {
  const catalog = (await (await page.request.get("/api/v1/catalog")).json()) as { presets: { id: string; platform: unknown }[] };
  const platform = catalog.presets.find((preset) => preset.id === "tr3322-lab")?.platform;
  const response = await page.request.post("/api/v1/designs", { data: { name: "Preview width", platform } });
  expect(response.status()).toBe(201);
  const { permalink } = (await response.json()) as { permalink: string };

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(permalink);
  const card = page.getByRole("region", { name: "Files" });
  const cardWidth = (await card.boundingBox())?.width ?? 0;
  await card.getByRole("button", { name: "Preview the files" }).click();
  const dialog = page.getByRole("dialog", { name: TITLE });
  const box = dialog.getByRole("region", { name: /^Text of / });
  await expect(box).toBeVisible();
  expect((await box.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(900);
  expect((await box.boundingBox())?.width ?? 0).toBeGreaterThan(cardWidth);
  await expectNoSidewaysPage(page, dialog);
  // The revision's zip keeps its revision in its name, as the card's own download does.
  const [saved] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download the bundle (.zip)" }).click()]);
  expect(saved.suggestedFilename()).toBe("nasplan-prod-r1.zip");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(card.getByRole("button", { name: "Preview the files" })).toBeFocused();
});

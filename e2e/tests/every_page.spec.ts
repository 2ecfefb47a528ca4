import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot } from "./helpers";

// Every route of the app, in the light theme, at desktop and phone widths: no
// horizontal overflow, no serious accessibility violation, a screenshot to look at.
const WIDTHS = { 1440: 900, 390: 844 } as const;

test("every page fits a phone and a wide screen and passes axe", async ({ page }) => {
  const catalog = await (await page.request.get("/api/v1/catalog")).json();
  const preset = catalog.presets.find((p: { id: string }) => p.id === "tr3322-lab");
  const created = await page.request.post("/api/v1/designs", { data: { name: "Every page", platform: preset.platform } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // Each page with its own heading, and for the wizard the plan it draws beside it.
  const pages: [string, string, RegExp][] = [
    ["wizard", "/", /^Describe the platform$/],
    ["compare", "/compare", /^What if/],
    ["audit", "/audit", /^Audit what already runs$/],
    ["rules", "/rules", /^Knowledge base$/],
    ["rule", "/rules/NTAP-MINRA-OFF", /minra off/],
    ["design", `/d/${id}`, /^Every page$/],
    ["revision", `/d/${id}/r/1`, /^Every page$/],
    ["your-designs", "/designs", /^Your designs$/],
    ["not-found", "/no/such/page", /^Page not found$/],
  ];
  for (const [name, path, ready] of pages) {
    for (const [width, height] of Object.entries(WIDTHS)) {
      await page.setViewportSize({ width: Number(width), height });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: ready })).toBeVisible();
      if (name === "wizard") await expect(page.getByRole("region", { name: "At a glance" })).toBeVisible();
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll, `${name} at ${width} px overflows sideways`).toBeLessThanOrEqual(widths.client);
      await expectAccessible(page, `${name} at ${width} px`);
      await screenshot(page, `page-${name}-${width}`);
    }
  }
});

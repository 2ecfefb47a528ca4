// Steps the design page tests share: saving a design through the wizard or the API, and
// reading what the page sends.
import { expect, type Page, type Request } from "@playwright/test";
import { fillTr3322, waitForPlan } from "./helpers";

/** Save TR-3322's lab platform through the wizard: the three links it shows once. */
export async function saveDesign(page: Page, name: string) {
  await page.goto("/");
  await fillTr3322(page);
  await waitForPlan(page);
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByLabel("Design name").fill(name);
  await page.getByRole("button", { name: "Save design" }).click();
  const links = page.getByRole("region", { name: "Saved design links" });
  await expect(links).toBeVisible();
  // The Save button is gone: the keyboard lands on the links, not on the page.
  await expect(links.getByText(/^Saved\. Copy the links now/)).toBeFocused();
  const codes = await links.locator("code").allTextContents();
  const [permalink, editLink, reviewLink] = codes;
  if (!permalink || !editLink || !reviewLink) throw new Error("links missing");
  return { permalink, editLink, reviewLink };
}

export async function mountLines(page: Page): Promise<string[]> {
  return page.locator("[data-testid^=mount-] pre").allTextContents();
}

/** The JSON bodies of the POSTs to an API path, as the page sends them. */
export function recordPosts(page: Page, path: RegExp): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && path.test(new URL(request.url()).pathname)) {
      bodies.push(JSON.parse(request.postData() ?? "{}") as Record<string, unknown>);
    }
  });
  return bodies;
}

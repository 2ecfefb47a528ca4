import { expect, test, type Page, type Request } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import { expectAccessible, expectTr3322Mounts, fillTr3322, screenshot, waitForPlan, WIDTHS } from "./helpers";

async function saveDesign(page: Page, name: string) {
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
  await expect(page.getByTestId("approval")).toContainText(/Approved by DBA lead on \d{4}-\d{2}-\d{2}/);
  // The revision list says who did what: saved (a date), approved by (the reviewer).
  const firstRevision = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Revision 1", exact: true }) });
  await expect(firstRevision).toContainText(/saved \d{4}-\d{2}-\d{2} · KB .* · approved by DBA lead/);

  // Edit with the edit link: one NIC instead of two.
  await page.goto(editLink);
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill("1");
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByRole("button", { name: "Save as revision 2" }).click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  await expect(page.getByTestId("revision-status")).toHaveText("draft");
  await expect(page.getByTestId("design-state")).toHaveText("draft (r1 approved)");

  // Revision 1 is still approved, and the diff shows what changed.
  const compare = page.getByRole("region", { name: "Compare revisions" });
  await expect(compare.getByRole("region", { name: "What changed" })).toContainText("NET-MULTIPATH-SCALING");
  await expect(compare.getByRole("region", { name: "What changed" })).toContainText("platform network.nic_count: 2 → 1");
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

/** The JSON bodies of the POSTs to an API path, as the page sends them. */
function recordPosts(page: Page, path: RegExp): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && path.test(new URL(request.url()).pathname)) {
      bodies.push(JSON.parse(request.postData() ?? "{}") as Record<string, unknown>);
    }
  });
  return bodies;
}

test("the review form starts afresh after each review, and an approval is of the whole revision", async ({ page }) => {
  const { reviewLink } = await saveDesign(page, "Review form");
  const sent = recordPosts(page, /\/reviews$/);
  await page.goto(reviewLink);
  const form = page.getByRole("form", { name: "Review revision 1" });
  const item = form.getByLabel("About one item (optional)");

  // Comment is the default (approvals are final, so one is always chosen); an approval never
  // names an item.
  await expect(form.getByLabel("Decision")).toHaveValue("comment");
  await form.getByLabel("Decision").selectOption("approve");
  await expect(item).toHaveCount(0);
  await form.getByLabel("Decision").selectOption("request_changes");
  await expect(item).toBeVisible();
  await form.getByLabel("Decision").selectOption("comment");
  await expect(item).toHaveValue("");

  // A comment on one item, then the whole form resets.
  await form.getByLabel("Reviewer").fill("DBA lead");
  await item.selectOption("MNT-NOINTR");
  await form.getByLabel("Comment").fill("Why nointr?");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(form.getByRole("status")).toHaveText("Review recorded.");
  await expect(page.getByTestId("review").first()).toContainText("on MNT-NOINTR");
  await expect(form.getByLabel("Decision")).toHaveValue("comment");
  await expect(item).toHaveValue("");
  await expect(form.getByLabel("Comment")).toHaveValue("");
  await form.getByLabel("Decision").selectOption("approve");

  // The next approval is stored for the whole revision.
  await form.getByLabel("Reviewer").fill("DBA lead");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");
  const approval = page.getByTestId("review").filter({ hasText: "approve" });
  await expect(approval).toHaveCount(1);
  await expect(approval).not.toContainText(" on ");
  expect(sent.map((body) => [body.decision, body.item_rule])).toEqual([
    ["comment", "MNT-NOINTR"],
    ["approve", null],
  ]);
  // Approved: only comments now, the default decision.
  await expect(form.getByLabel("Decision")).toHaveValue("comment");
  await expect(form.getByLabel("Decision").locator("option")).toHaveText(["Comment only"]);
});

test("error findings must be acknowledged to save, to revise and to approve", async ({ page }) => {
  const designs = recordPosts(page, /\/designs$|\/revisions$/);
  const reviews = recordPosts(page, /\/reviews$/);
  await page.goto("/");
  await fillTr3322(page);
  // The wizard no longer offers Direct NFS on Oracle9i; NFSv4.1 on Solaris is still an error.
  await page.getByRole("button", { name: "3. Oracle" }).click();
  await page.getByLabel("NFS version").selectOption("4.1");
  await page.getByRole("button", { name: "7. Review" }).click();
  await waitForPlan(page);
  await page.getByLabel("Design name").fill("NFSv4.1 on Solaris 9");
  const ack = page.getByLabel("I have read the 1 error finding and save anyway");
  await expect(ack).not.toBeChecked();
  await expect(page.getByRole("group", { name: /This plan has 1 error finding/ })).toContainText("COMPAT-NFS41-SCOPE");
  const save = page.getByRole("button", { name: "Save design" });
  await expect(save).toBeDisabled();
  mkdirSync("/tmp/shots", { recursive: true });
  await page.locator("form").first().screenshot({ path: "/tmp/shots/wizard-save-errors-1280.png" });
  await ack.check();
  await expect(save).toBeEnabled();
  await save.click();
  const links = page.getByRole("region", { name: "Saved design links" });
  await expect(links).toBeVisible();
  const [, editLink, reviewLink] = await links.locator("code").allTextContents();
  if (!editLink || !reviewLink) throw new Error("links missing");
  expect(designs.at(-1)?.acknowledge_errors).toBe(true);

  // The design says the errors were acknowledged.
  await page.goto(editLink);
  await expect(page.getByTestId("errors-acknowledged")).toContainText("Saved with 1 error finding");

  // A new revision that still has the error needs the confirmation again.
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill("1");
  await page.getByRole("button", { name: "7. Review" }).click();
  const revise = page.getByRole("button", { name: "Save as revision 2" });
  await expect(page.getByLabel("I have read the 1 error finding and save anyway")).toBeVisible();
  await expect(revise).toBeDisabled();
  await page.getByLabel("I have read the 1 error finding and save anyway").check();
  await revise.click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  expect(designs.at(-1)?.acknowledge_errors).toBe(true);

  // Approving needs its own confirmation.
  await page.goto(reviewLink.replace(/#/, "/r/2#"));
  const form = page.getByRole("form", { name: "Review revision 2" });
  await form.getByLabel("Reviewer").fill("DBA lead");
  await form.getByLabel("Decision").selectOption("approve");
  const record = form.getByRole("button", { name: "Record review" });
  await expect(record).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 900 });
  await form.screenshot({ path: "/tmp/shots/review-form-errors-390.png" });
  await form.getByLabel("I have read the 1 error finding and approve anyway").check();
  await expect(record).toBeEnabled();
  await record.click();
  await expect(page.getByTestId("revision-status")).toHaveText("approved");
  await expect(page.getByTestId("review")).toContainText("error findings acknowledged");
  expect(reviews.at(-1)).toMatchObject({ decision: "approve", acknowledge_errors: true, item_rule: null });
  // A comment needs no confirmation.
  await expect(form.getByLabel(/approve anyway/)).toHaveCount(0);
});

async function approveAndImport(page: Page, name: string) {
  const { reviewLink, editLink } = await saveDesign(page, name);
  await page.goto(reviewLink);
  const form = page.getByRole("form", { name: "Review revision 1" });
  await form.getByLabel("Decision").selectOption("comment");
  await form.getByLabel("Reviewer").fill("Storage admin");
  await form.getByLabel("About one item (optional)").selectOption("NTAP-MINRA-OFF");
  await form.getByLabel("Comment").fill("minra off checked on filer01.");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(form.getByLabel("Comment")).toHaveValue("");
  await form.getByLabel("Reviewer").fill("DBA lead");
  await form.getByLabel("Decision").selectOption("approve");
  await form.getByLabel("Comment").fill("Matches TR-3322.");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");
  const designId = new URL(reviewLink).pathname.split("/")[2] ?? "";
  const exported = await page.request.get(`/api/v1/designs/${designId}/export`);
  expect(exported.ok()).toBe(true);
  const imported = await page.request.post("/api/v1/designs/import", { data: await exported.json() });
  expect(imported.status()).toBe(201);
  const created = (await imported.json()) as { id: string; review_token: string };
  return { designId, reviewLink, editLink, imported: created };
}

test("an approved revision says who approved which bundle; imported reviews approve nothing", async ({ page }) => {
  const { designId, reviewLink, imported } = await approveAndImport(page, "Approved and exported");
  await page.goto(reviewLink);
  const approval = page.getByTestId("approval");
  await expect(approval).toContainText(/Approved by DBA lead on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · bundle sha256 [0-9a-f]{12}…/);
  const bundle = await page.request.get(`/api/v1/designs/${designId}/revisions/1/bundle`);
  const digest = bundle.headers()["x-bundle-sha256"] ?? "";
  expect(digest).toMatch(/^[0-9a-f]{64}$/);
  await expect(approval.locator("code")).toHaveText(`${digest.slice(0, 12)}…`);
  await expect(approval.locator("code")).toHaveAttribute("title", `sha256 ${digest}`);
  await expect(approval.getByRole("button", { name: "Copy the approved bundle's full sha256" })).toBeVisible();

  // The imported copy: not approved here, its reviews marked as unverified history.
  await page.goto(`/d/${imported.id}`);
  await expect(page.getByRole("heading", { name: "Approved and exported" })).toBeVisible();
  await expect(page.getByTestId("design-state")).not.toContainText("approved");
  await expect(page.getByTestId("approval")).toHaveCount(0);
  await expect(page.getByTestId("provenance")).toContainText("Imported revision");
  await expect(page.getByTestId("provenance")).toContainText("Imported reviews are not verified");
  const history = page.getByTestId("review-imported");
  await expect(history).toHaveCount(2);
  for (const review of await history.all()) await expect(review).toContainText("imported, not verified");
  await expect(history.filter({ hasText: "approve" })).toContainText("it approves nothing here");
  await expect(page.getByTestId("review")).toHaveCount(0);
  // Not styled as an approval: no green.
  const classes = await history.evaluateAll((items) => items.map((item) => item.className));
  for (const name of classes) expect(name).not.toMatch(/green/);
});

test("a revision diff names platform answers, expectations and mount option tokens, and fits 390 px", async ({ page }) => {
  const { editLink } = await saveDesign(page, "Diff kinds");
  await page.goto(editLink);
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "3. Oracle" }).click();
  await page.getByLabel("Workload").selectOption("dss");
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByRole("button", { name: "Save as revision 2" }).click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 900 });
  const changes = page.getByRole("region", { name: "Compare revisions" }).getByRole("region", { name: "What changed" });
  await expect(changes).toContainText("platform oracle.workload: oltp → dss");
  await expect(changes).toContainText(/expectation transfer_bytes: 32768 → 65536/);
  const tokens = changes.getByRole("list", { name: "Option changes on data /u02/oradata/PROD" });
  await expect(tokens.locator("del")).toContainText(["−rsize=32768", "−wsize=32768"]);
  await expect(tokens.locator("ins")).toContainText(["+rsize=65536", "+wsize=65536"]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, "design diff phone");
  mkdirSync("/tmp/shots", { recursive: true });
  await page.getByRole("region", { name: "Compare revisions" }).screenshot({ path: "/tmp/shots/diff-tokens-390.png" });
});

test("screenshots of approved, imported and review views", async ({ page }) => {
  const { reviewLink, editLink, imported } = await approveAndImport(page, "PROD to NAS (approved)");
  // A second revision so the diff shows option tokens.
  await page.goto(editLink);
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "3. Oracle" }).click();
  await page.getByLabel("Real Application Clusters (RAC)").check();
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByRole("button", { name: "Save as revision 2" }).click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  const dir = "/tmp/shots";
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(reviewLink.replace(/#/, "/r/1#"));
    await expect(page.getByTestId("approval")).toBeVisible();
    await page.screenshot({ path: `${dir}/approved-${width}.png`, fullPage: true });
    await page.getByRole("form", { name: "Review revision 1" }).screenshot({ path: `${dir}/review-form-approved-${width}.png` });
    await page.goto(reviewLink.replace(/#/, "/r/2#"));
    await expect(page.getByRole("form", { name: "Review revision 2" })).toBeVisible();
    await page.screenshot({ path: `${dir}/revision2-${width}.png`, fullPage: true });
    await page.getByRole("form", { name: "Review revision 2" }).screenshot({ path: `${dir}/review-form-${width}.png` });
    await page.getByRole("region", { name: "Compare revisions" }).screenshot({ path: `${dir}/diff-${width}.png` });
    await page.goto(`/d/${imported.id}#review=${imported.review_token}`);
    await expect(page.getByTestId("provenance")).toBeVisible();
    await page.screenshot({ path: `${dir}/imported-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, `imported ${width}`);
  }
});

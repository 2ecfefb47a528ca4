import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { mountLines, recordPosts, saveDesign } from "./designSteps";
import { createDesignFromPreset, expectAccessible, expectTr3322Mounts, fillTr3322, screenshot, waitForPlan, WIDTHS } from "./helpers";

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
  await expect(compare.getByRole("region", { name: "What changed" })).toContainText("Storage NICs per host: 2 → 1");
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

/** The text of the files of a downloaded zip, by path under its root folder. */
function zipEntries(path: string): Record<string, string> {
  const script = [
    "import json, sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "print(json.dumps({n.split('/', 1)[1]: z.read(n).decode() for n in z.namelist()}))",
  ].join("\n");
  return JSON.parse(execFileSync("python3", ["-c", script, path], { encoding: "utf8" })) as Record<string, string>;
}

test("the approved bundle's README and both runbooks say who approved it; its check script passes", async ({ page }) => {
  const { reviewLink } = await saveDesign(page, "Banner check");
  await page.goto(reviewLink);
  await page.getByLabel("Reviewer").fill("Change board");
  await page.getByLabel("Decision").selectOption("approve");
  await page.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");
  const files = page.getByRole("region", { name: "Files" });
  const [zip] = await Promise.all([page.waitForEvent("download"), files.getByRole("button", { name: "Download config bundle (.zip)" }).click()]);
  expect(zip.suggestedFilename()).toMatch(/-r1\.zip$/);
  const zipPath = await zip.path();
  const entries = zipEntries(zipPath);
  for (const path of ["README.md", "RUNBOOK.md", "RUNBOOK.html"]) {
    expect(entries[path], path).toMatch(/Approved\W+by Change board on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  }
  // The banner sits above the runbook's title, where the reader starts.
  const markdown = entries["RUNBOOK.md"] ?? "";
  expect(markdown.indexOf("Approved by Change board")).toBeLessThan(markdown.indexOf("# Runbook"));
  // Everything but the review lines is what was approved: the bundle's own check says so.
  const folder = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim();
  execFileSync("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", zipPath, folder]);
  const root = execFileSync("ls", [folder], { encoding: "utf8" }).trim();
  const check = execFileSync("sh", [`${folder}/${root}/verify/check_bundle.sh`], { encoding: "utf8" });
  const approved = await page.getByTestId("approval").locator("code[data-sha256]").getAttribute("data-sha256");
  expect(check).toContain(`Bundle sha256 ${approved ?? "none"}:`);
  // The served runbook is the bundle's own.
  const [printed] = await Promise.all([page.waitForEvent("download"), files.getByRole("button", { name: "Runbook (Markdown)" }).click()]);
  expect(readFileSync(await printed.path(), "utf8")).toBe(markdown);
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

test("the review form starts afresh after each review, and an approval is of the whole revision", async ({ page }) => {
  const { reviewLink } = await saveDesign(page, "Review form");
  const sent = recordPosts(page, /\/reviews$/);
  await page.goto(reviewLink);
  const form = page.getByRole("form", { name: "Review revision 1" });
  const inPlace = form.getByText("To comment on one mount, option, setting or finding, use Comment beside it in the plan.");

  // Comment is the default (approvals are final, so one is always chosen). A comment on one item
  // is made beside the item in the plan: the form only says so, and never for an approval.
  await expect(form.getByLabel("Decision")).toHaveValue("comment");
  await expect(inPlace).toBeVisible();
  await form.getByLabel("Decision").selectOption("approve");
  await expect(inPlace).toHaveCount(0);
  await form.getByLabel("Decision").selectOption("comment");

  // A comment on the whole revision, then the form resets but keeps the reviewer's name.
  await form.getByLabel("Reviewer").fill("DBA lead");
  await form.getByLabel("Comment").fill("Why nointr?");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(form.getByRole("status")).toHaveText("Review recorded.");
  await expect(page.getByTestId("review").first()).toContainText("Why nointr?");
  await expect(page.getByTestId("review").first()).not.toContainText(" on ");
  await expect(form.getByLabel("Decision")).toHaveValue("comment");
  await expect(form.getByLabel("Comment")).toHaveValue("");
  await expect(form.getByLabel("Reviewer")).toHaveValue("DBA lead");

  // The next approval is stored for the whole revision.
  await form.getByLabel("Decision").selectOption("approve");
  await form.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");
  const approval = page.getByTestId("review").filter({ hasText: "approve" });
  await expect(approval).toHaveCount(1);
  await expect(approval).not.toContainText(" on ");
  expect(sent.map((body) => [body.decision, body.item_rule ?? null, body.item ?? null])).toEqual([
    ["comment", null, null],
    ["approve", null, null],
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
  // A comment on one setting, in place.
  await page.getByTestId("setting-minra").getByRole("button", { name: /^Comment on / }).click();
  const onMinra = page.getByRole("form", { name: /^Comment on filer setting minra/ });
  await onMinra.getByLabel("Your name").fill("Storage admin");
  await onMinra.getByLabel("Your comment").fill("minra off checked on filer01.");
  await onMinra.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(page.getByRole("list", { name: /^Comments on filer setting minra/ })).toContainText("minra off checked on filer01.");
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
  // The comment on one setting came along and is still under that setting.
  await expect(page.getByRole("list", { name: /^Comments on filer setting minra/ })).toContainText(/Storage admin commented .* imported, not verified/);
  await expect(page.getByTestId("review")).toHaveCount(0);
  // Not styled as an approval: no green.
  const classes = await history.evaluateAll((items) => items.map((item) => item.className));
  for (const name of classes) expect(name).not.toMatch(/green/);
});

test("a revision diff says what changed in plain words, by team, with the files' changed lines, and fits 390 px", async ({ page }) => {
  // Three accessibility scans and eight screenshots: on a 2-core machine running the lab beside
  // it, this took over the default minute once (every assertion had passed).
  const { editLink } = await saveDesign(page, "Diff kinds");
  await page.goto(editLink);
  await page.getByRole("button", { name: "Edit (new revision)" }).click();
  await page.getByRole("button", { name: "3. Oracle" }).click();
  await page.getByLabel("Workload").selectOption("dss");
  await page.getByRole("button", { name: "7. Review" }).click();
  await page.getByRole("button", { name: "Save as revision 2" }).click();
  await expect(page.getByText(/Showing revision 2 \(latest\)/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 900 });
  const compare = page.getByRole("region", { name: "Compare revisions" });
  const changes = compare.getByRole("region", { name: "What changed" });
  const answers = changes.getByRole("region", { name: /^Answers changed/ });
  await expect(answers).toContainText("Workload: OLTP (transactions) → DSS (scans, reporting)");
  // The one answer changed is the only one listed: no empty hand-over list counts as a change.
  await expect(answers.getByRole("listitem")).toHaveCount(1);
  await expect(changes.getByRole("region", { name: /^Everyone/ })).toContainText("Bytes per read on the wire: 32,768 bytes (32 KiB) → 65,536 bytes (64 KiB)");
  // The words, not the files' own lines (plan.json is JSON: its keys are what it is).
  const words = await changes.evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("details").forEach((file) => file.remove());
    return copy.textContent ?? "";
  });
  for (const raw of ["oracle.workload", "transfer_bytes", "planned_scan_mb_s", "tcp_window_bytes"]) expect(words).not.toContain(raw);

  // The Unix administrator's part: the mount's options token by token, then the files.
  const sysadmin = changes.getByRole("region", { name: /^System administration/ });
  const tokens = sysadmin.getByRole("list", { name: "Option changes on /u02/oradata/PROD" });
  await expect(tokens.locator("del")).toContainText(["−rsize=32768", "−wsize=32768"]);
  await expect(tokens.locator("ins")).toContainText(["+rsize=65536", "+wsize=65536"]);
  const mountsFile = sysadmin.getByTestId("file-diff").filter({ hasText: "host/mounts.sh" });
  const lines = mountsFile.getByLabel("Differences in host/mounts.sh");
  await expect(lines).toBeHidden();
  await mountsFile.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(lines).toBeVisible();
  await expect(lines.locator("span").filter({ hasText: /^-filer01:\/vol\/prod_data\s.*rsize=32768,wsize=32768/ })).toHaveCount(1);
  await expect(lines.locator("span").filter({ hasText: /^\+filer01:\/vol\/prod_data\s.*rsize=65536,wsize=65536/ })).toHaveCount(1);
  // Only the header's revision number changed in the filer's commands: not listed as a change.
  await expect(compare.getByTestId("file-diff").filter({ hasText: "filer/commands.txt" })).toHaveCount(0);
  await expect(changes).toContainText(/other files? differs? only in the revision number/);

  // A long line scrolls inside its box (no wrapping); the page itself never scrolls sideways.
  expect(await lines.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, "design diff phone");

  const dir = "/tmp/shots-diff";
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await compare.screenshot({ path: `${dir}/diff-${width}-${scheme}.png` });
      await mountsFile.screenshot({ path: `${dir}/mounts-file-${width}-${scheme}.png` });
    }
    await expectAccessible(page, `design diff ${scheme}`);
  }
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

test("a reviewer comments on one option in place; a reader sees it there without a Comment control", async ({ page, browser }) => {
  const { id, review_token: token } = await createDesignFromPreset(page, "tr3322-lab", "Comments in place");
  const sent = recordPosts(page, /\/reviews$/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/d/${id}#review=${token}`);
  const chip = page.getByTestId("mount-data").getByRole("button", { name: /^forcedirectio/ });
  const where = "mount /u02/oradata/PROD, option 'forcedirectio'";

  // The chip's reasons hold its Comment control; the form offers a comment or a change, no approval.
  await chip.click();
  await page.getByRole("button", { name: `Comment on ${where}` }).click();
  const form = page.getByRole("form", { name: `Comment on ${where}` });
  await expect(form.getByRole("button")).toHaveText(["Comment", "Request a change", "Cancel"]);
  await expect(form.getByLabel("Your comment")).toBeFocused();
  await form.getByLabel("Your name").fill("Storage lead");
  await form.getByLabel("Your comment").fill("Why <b>forcedirectio</b> here?");
  await expectAccessible(page, "comment form 1440");
  await form.getByRole("button", { name: "Comment", exact: true }).click();

  // Under that chip, and only there: the same option on the redo mount has none.
  const comments = page.getByRole("list", { name: `Comments on ${where}` });
  await expect(comments).toContainText(/forcedirectio · Storage lead commented · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  await expect(comments).toContainText("Why <b>forcedirectio</b> here?");
  await expect(comments.locator("b")).toHaveCount(0);
  await expect(form).toHaveCount(0);
  await expect(chip).toHaveAccessibleName(/^forcedirectio\W+1 comment\W+why\?$/);
  await expect(page.getByTestId("mount-redo").getByTestId("item-comments")).toHaveCount(0);
  expect(sent).toEqual([
    expect.objectContaining({ decision: "comment", item_rule: "SOL-MNT-FORCEDIRECTIO-DATA", item: { kind: "option", key: "data /u02/oradata/PROD", option: "forcedirectio" } }),
  ]);

  // The reviews panel names the item in words and moves to it.
  const reviews = page.getByRole("region", { name: "Reviews of revision 1" });
  await chip.click();
  await reviews.getByRole("link", { name: where }).click();
  await expect(chip).toBeFocused();

  // Then the whole revision is approved, by the name the comment remembered.
  const panel = page.getByRole("form", { name: "Review revision 1" });
  await expect(panel.getByLabel("Reviewer")).toHaveValue("Storage lead");
  await panel.getByLabel("Decision").selectOption("approve");
  await panel.getByRole("button", { name: "Record review" }).click();
  await expect(page.getByTestId("design-state")).toHaveText("approved r1");
  // Approved revisions take comments, not change requests; the panel moves to a setting too.
  await page.getByTestId("setting-minra").getByRole("button", { name: /^Comment on / }).click();
  const onMinra = page.getByRole("form", { name: "Comment on filer setting minra on prod_data" });
  await expect(onMinra.getByRole("button")).toHaveText(["Comment", "Cancel"]);
  await onMinra.getByLabel("Your comment").fill("minra off: checked.");
  await onMinra.getByRole("button", { name: "Comment", exact: true }).click();
  await reviews.getByRole("link", { name: "filer setting minra on prod_data" }).click();
  await expect(page.getByTestId("setting-minra")).toBeFocused();

  mkdirSync("/tmp/shots-comments", { recursive: true });
  for (const [width, scheme] of [[1440, "light"], [390, "light"], [390, "dark"], [1440, "dark"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page, `comments ${width} ${scheme}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId("mount-data").screenshot({ path: `/tmp/shots-comments/mount-${width}-${scheme}.png` });
    await page.screenshot({ path: `/tmp/shots-comments/design-${width}-${scheme}.png`, fullPage: true });
  }

  // A reader without the review token sees the comment in place, and no Comment control.
  const other = await browser.newContext();
  const reader = await other.newPage();
  await reader.goto(`/d/${id}`);
  await expect(reader.getByRole("list", { name: `Comments on ${where}` })).toContainText("Why <b>forcedirectio</b> here?");
  await expect(reader.getByTestId("mount-data").getByRole("button", { name: /^forcedirectio/ })).toHaveAccessibleName(/^forcedirectio\W+1 comment\W+why\?$/);
  await expect(reader.getByRole("region", { name: "Reviews of revision 1" }).getByRole("link", { name: where })).toBeVisible();
  await expect(reader.getByRole("button", { name: /^Comment/ })).toHaveCount(0);
  await reader.getByTestId("mount-data").getByRole("button", { name: /^forcedirectio/ }).click();
  await expect(reader.getByRole("region", { name: "Why forcedirectio on /u02/oradata/PROD" }).getByRole("button", { name: /^Comment/ })).toHaveCount(0);
  await expectAccessible(reader, "comments reader");
  await other.close();
});

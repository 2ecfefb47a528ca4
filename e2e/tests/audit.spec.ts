import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SCREENSHOTS, WIDTHS, createDesignFromPreset, expectAccessible, screenshot } from "./helpers";

const REAL_FSTAB = [
  "# /etc/fstab",
  "UUID=4f1c-root  /          xfs   defaults        0 0",
  "filer01:/vol/ora_data   /u02/oradata   nfs  rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp,timeo=600,actimeo=0  0 0",
  "filer01:/vol/ora_redo   /u03/oraredo   nfs  rw,bg,hard,nointr,rsize=32768,wsize=32768,vers=3,tcp,timeo=600  0 0",
  "filer01:/vol/backup     /backup        nfs  rw,bg,soft,rsize=65536,wsize=65536  0 0",
].join("\n");

async function auditRealFstab(page: Page): Promise<void> {
  await page.goto("/audit");
  await page.getByLabel("Start from a preset").selectOption("example-linux-knfs-7mode");
  await expect(page.getByTestId("audit-platform")).toContainText("Oracle 11.2");
  await page.getByLabel("Text (paste 1)").fill(REAL_FSTAB);
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("audit-verdict")).toContainText("Score 33%");
}

test("a real fstab: roles guessed with reasons, options checked, the corrected file ready", async ({ page }) => {
  await auditRealFstab(page);
  await expect(page.getByRole("region", { name: "What the pastes were taken for" })).toContainText("/etc/fstab");
  const fstab = page.getByRole("region", { name: "Findings in fstab" });
  await expect(fstab.getByText("/u02/oradata: soft where the plan has hard.")).toBeVisible();
  await expect(fstab.getByText("/u02/oradata: proto=udp where the plan has proto=tcp.")).toBeVisible();
  await expect(fstab.getByText("/u02/oradata: actimeo=0 must not be used here", { exact: false })).toBeVisible();
  // One card per line to act on, named as users name the file: line 3 (six options, one fix)
  // and the backup line 5; line 4 is right.
  await expect(fstab.getByRole("heading", { name: "/etc/fstab (Linux, HP-UX)" })).toBeVisible();
  await expect(fstab.getByTestId("audit-line")).toHaveCount(2);
  await expect(fstab.getByTestId("audit-line").first()).toContainText("error · line 3");
  await expect(fstab.getByTestId("audit-line").first().locator("pre")).toHaveCount(1);
  await expect(page.getByTestId("audit-verdict")).toContainText("1 line with errors · 1 line with warnings");
  const holds = page.getByRole("region", { name: "What each NFS line holds" });
  await expect(holds.getByText("the mount point /u02/oradata names data files")).toBeVisible();
  await expect(holds.getByTestId("role-basis").first()).toHaveText("read from its name");
  const corrected = page.getByRole("region", { name: "Corrected fstab" }).locator("pre");
  await expect(corrected).toContainText("/u02/oradata\tnfs\trw,bg,hard,nointr,");
  // The backup line has no planned line to write instead: it stays, under a comment saying why.
  await expect(corrected).toContainText("# nasplan: left as it was, to change by hand: /backup: soft is unsafe");
  // Say /u02/oradata holds something else: its findings go.
  await holds.getByLabel("Holds (/u02/oradata)").selectOption("other");
  await expect(fstab.getByText("/u02/oradata: soft where the plan has hard.")).toHaveCount(0);
  await expect(holds.getByText("you said /u02/oradata holds other")).toBeVisible();
  await expect(holds.getByTestId("role-basis").first()).toHaveText("your answer");
});

test("a line whose files nothing names: what every Oracle mount needs, then the user's answer", async ({ page }) => {
  // Issue 26 (kind 7): no error that assumes a role; what holds for every Oracle file is said,
  // and the page asks what the line holds.
  await page.goto("/audit");
  await page.getByLabel("Start from a preset").selectOption("example-linux-knfs-7mode");
  await expect(page.getByTestId("audit-platform")).toContainText("Oracle 11.2");
  // The second line's mount point is a Kubernetes volume path, as real pastes have: its answer
  // is accepted too.
  const k8s = "/var/lib/kubelet/pods/f4/volumes/kubernetes.io~nfs/pvc-b8";
  await page.getByLabel("Text (paste 1)").fill(
    "filer01:/vol/vol9  /u05  nfs  rw,bg,soft,intr,vers=3,proto=tcp,timeo=600  0 0\n" +
      `filer01:/pvc-b8  ${k8s}  nfs  rw,bg,hard,vers=3,proto=tcp,timeo=600  0 0\n`,
  );
  await page.getByRole("button", { name: "Check" }).click();
  const holds = page.getByRole("region", { name: "What each NFS line holds" });
  await expect(holds.getByTestId("role-basis")).toHaveText(["not known: say what it holds", "not known: say what it holds"]);
  const fstab = page.getByRole("region", { name: "Findings in fstab" });
  await expect(fstab.getByText("/u05 (what it holds is not known; every Oracle mount of the plan has hard): soft where the plan has hard.")).toBeVisible();
  for (const [name, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `audit-unknown-role-${name}`);
  }
  await holds.getByLabel("Holds (/u05)").selectOption("data");
  await expect(fstab.getByText("/u05: soft where the plan has hard.")).toBeVisible();
  await expect(holds.getByTestId("role-basis").first()).toHaveText("your answer");
  await holds.getByLabel(`Holds (${k8s})`).selectOption("backup");
  await expect(holds.getByText(`you said ${k8s} holds backup`)).toBeVisible();
  await expect(holds.getByTestId("role-basis")).toHaveText(["your answer", "your answer"]);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

for (const [name, width] of Object.entries(WIDTHS)) {
  test(`the audit page is accessible at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await auditRealFstab(page);
    await expectAccessible(page, `audit ${name}`);
    await screenshot(page, `audit-${name}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test("an audit can start from a saved design", async ({ page }) => {
  const created = await createDesignFromPreset(page, "example-aix", "AIX move");
  await page.goto(`/d/${created.id}`);
  await page.getByRole("link", { name: "Audit what runs against this design" }).click();
  await expect(page.getByTestId("audit-design")).toContainText("AIX move");
  await expect(page.getByTestId("audit-platform")).toContainText("AIX");
});

test("the pastes name the platform: one click applies the answer and audits again", async ({ page }) => {
  await page.goto("/audit");
  await page.getByLabel("Start from a preset").selectOption("example-linux-knfs-7mode");
  await page.getByLabel("Text (paste 1)").fill("filer01:/vol/ora_data - /u02/oradata nfs - yes rw,bg,hard,intr,vers=3,proto=tcp");
  await page.getByLabel("What it is (paste 1)").selectOption("vfstab");
  await page.getByRole("button", { name: "Check" }).click();
  const disagree = page.getByRole("region", { name: "The pastes and the platform disagree" });
  await expect(disagree).toContainText("The pasted vfstab comes from");
  await disagree.getByRole("button", { name: /^Use .*Solaris/ }).click();
  await expect(page.getByTestId("audit-platform")).toContainText("Solaris");
  await expect(page.getByRole("region", { name: "The pastes and the platform disagree" })).toHaveCount(0);
  await expect(page.getByTestId("audit-verdict")).toBeVisible();
});

test("a design keeps an audit as its before, and its history lists it", async ({ page }) => {
  const created = await createDesignFromPreset(page, "example-linux-knfs-7mode", "Legacy move");
  await page.goto(`/d/${created.id}#edit=${created.edit_token}`);
  await expect(page.getByRole("region", { name: "Before (audits kept on the design)" })).toContainText("No audit is kept");
  await page.getByRole("link", { name: "Audit what runs against this design" }).click();
  await page.getByLabel("Text (paste 1)").fill(REAL_FSTAB);
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("audit-verdict")).toContainText("Score 33%");
  await page.getByRole("button", { name: /Keep on the design/ }).click();
  await expect(page.getByRole("status")).toContainText('Kept as "before"');
  await page.getByRole("link", { name: "the design" }).click();
  const kept = page.getByTestId("design-audit");
  await expect(kept).toContainText("before against revision 1");
  await expect(kept).toContainText("score 33%");
  const history = page.getByRole("region", { name: "History" });
  await expect(history.getByTestId("history-event")).toHaveCount(2);
  await expect(history.getByTestId("history-event").first()).toContainText('Audit "before" against revision 1: score 33%');
  await expectAccessible(page, "design page with a kept audit");
});

test("a very large paste: the answer lists the most severe findings and says how many more there are", async ({ page }) => {
  const lines = Array.from(
    { length: 400 },
    (_, n) => `filer01:/vol/ora_data${n}   /u02/oradata${n}   nfs  rw,bg,soft,intr,rsize=8192,wsize=8192,vers=3,proto=udp  0 0`,
  );
  await page.goto("/audit");
  await page.getByLabel("Start from a preset").selectOption("example-linux-knfs-7mode");
  await page.getByLabel("Text (paste 1)").fill(lines.join("\n"));
  await page.getByRole("button", { name: "Check" }).click();
  const omitted = page.getByTestId("audit-omitted").first();
  await expect(omitted).toContainText("Only the first 500 findings are listed");
  await expect(omitted).toContainText("more are counted above but not shown");
  for (const [name, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("region", { name: "Audit summary" }).screenshot({ path: `${SCREENSHOTS}audit-capped-${name}.png` });
  }
});

test("mount commands typed at a shell are read as commands, not as an fstab", async ({ page }) => {
  // Issue 26: "mount -t nfs -o … server:/x /mnt" was taken for an fstab whose mount point was "-t".
  await page.goto("/audit");
  await page.getByLabel("Start from a preset").selectOption("example-linux-knfs-7mode");
  await expect(page.getByTestId("audit-platform")).toContainText("Oracle 11.2");
  await page
    .getByLabel("Text (paste 1)")
    .fill("$ sudo mount -t nfs -o rw,bg,soft,intr,vers=3,proto=tcp filer01:/vol/ora_data /u02/oradata\n");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByRole("region", { name: "What the pastes were taken for" })).toContainText("mount commands typed at a shell");
  await expect(page.getByText("/u02/oradata: soft where the plan has hard.")).toBeVisible();
  await expect(page.getByText(/^-t: /)).toHaveCount(0);
  for (const [name, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `audit-command-${name}`);
  }
});

test("a collection from this host: the platform it shows, confirmed, findings, and a design started from it", async ({ page, request }) => {
  // The collector the app serves, run for real on the machine the tests run on (Linux).
  const dir = mkdtempSync(join(tmpdir(), "nasplan-collect-"));
  writeFileSync(join(dir, "collect.sh"), await (await request.get("/api/v1/collector/linux")).text());
  execFileSync("sh", [join(dir, "collect.sh"), join(dir, "out")]);
  await page.goto("/audit");
  await page.getByLabel("Collection (nasplan-collect.tar)").setInputFiles(join(dir, "out", "nasplan-collect.tar"));
  const collection = page.getByTestId("collection-report");
  await expect(collection).toContainText("Linux (MANIFEST.txt: the Linux collector wrote this collection)");
  await expect(collection).toContainText("file(s) the host would not give");
  await collection.getByText("file(s) the host would not give").click();
  await expect(collection).toContainText("Direct NFS servers in use (v$dnfs_servers): not read: needs");
  await page.getByRole("button", { name: "Use these answers and check" }).click();
  await expect(page.getByTestId("audit-verdict")).toBeVisible();
  await expect(page.getByRole("region", { name: "Findings in sysctl" })).toBeVisible();
  // The corrected file, ready to copy: every key the findings name, with the planned value.
  await expect(page.getByRole("region", { name: "Corrected sysctl" }).locator("pre")).toContainText("net.");
  await expectAccessible(page, "audit of a collection");
  for (const [name, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `audit-collection-${name}`);
  }
  // The wizard opens with the host's answers (only those that differ from its defaults are in
  // the address: this machine has no interface at MTU 9000, so no jumbo frames).
  await page.getByRole("link", { name: "Start a design from this host" }).click();
  await expect(page).toHaveURL(/network\.jumbo_frames=0/);
});

test("a collection checked against a saved design: the host as built beside the design, then its findings kept", async ({ page, request }) => {
  const dir = mkdtempSync(join(tmpdir(), "nasplan-collect-"));
  writeFileSync(join(dir, "collect.sh"), await (await request.get("/api/v1/collector/linux")).text());
  execFileSync("sh", [join(dir, "collect.sh"), join(dir, "out")]);
  const created = await createDesignFromPreset(page, "current-linux-ontap", "As built check");
  await page.goto(`/d/${created.id}#edit=${created.edit_token}`);
  await page.getByRole("link", { name: "Audit what runs against this design" }).click();
  await expect(page.getByTestId("audit-design")).toContainText("As built check");
  await page.getByLabel("Collection (nasplan-collect.tar)").setInputFiles(join(dir, "out", "nasplan-collect.tar"));
  const against = page.getByTestId("collection-against-design");
  await expect(against).toContainText("The host as built against the design");
  await expect(against).toContainText("Agrees: Linux");
  // This machine has no interface at MTU 9000; the design plans jumbo frames.
  await expect(against).toContainText("Differs: standard frames (MTU 1500)");
  await expect(against).toContainText("the design says jumbo frames");
  await expect(page.getByRole("link", { name: "Start a design from this host" })).toHaveCount(0);
  await page.getByRole("button", { name: "Check against the design" }).click();
  await expect(page.getByTestId("audit-verdict")).toBeVisible();
  await expect(page.getByTestId("audit-platform")).toContainText("Linux");
  await page.getByRole("button", { name: /Keep on the design/ }).click();
  await expect(page.getByRole("status")).toContainText("Kept as");
  for (const [name, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `audit-collection-design-${name}`);
  }
});


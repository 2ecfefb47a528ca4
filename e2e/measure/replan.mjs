// How long from changing an answer to the new plan on screen (median and worst of 20).
import { chromium } from "@playwright/test";

const base = process.argv[2];
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${base}/`);
await page.getByText(/^Knowledge base \d+\.\d+\.\d+, advice as of/).waitFor();
const timings = [];
for (let i = 0; i < 20; i += 1) {
  const count = String((i % 8) + 1);
  const started = Date.now();
  await page.getByLabel("Memory per host (GB)").fill(String(64 + i));
  await page.getByRole("button", { name: "2. Network" }).click();
  await page.getByLabel("Storage NICs per host").fill(count);
  // The plan is on screen when the diagram names the new NIC count.
  await page.locator("#diagram-desc").filter({ hasText: `${count} × 25 GbE` }).waitFor();
  timings.push(Date.now() - started);
  await page.getByRole("button", { name: "1. Host" }).click();
}
timings.sort((a, b) => a - b);
console.log(`re-plan after an answer changes: median ${timings[10]} ms, worst ${timings[19]} ms (20 changes; includes typing and the 60 ms debounce)`);
await browser.close();

import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// E2E_PORT runs a second suite beside one already on 8123 (a CI check in another checkout).
const PORT = Number(process.env.E2E_PORT ?? 8123);
const database = join(mkdtempSync(join(tmpdir(), "nasplan-e2e-")), "e2e.db");

export default defineConfig({
  testDir: "./tests",
  // A guard against a hung test, not a speed check: on a loaded 2-core CI machine the longer
  // journeys (several axe scans and screenshots each) have run past one minute with every
  // assertion passing. Each expect still waits at most 10 s.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    acceptDownloads: true,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "../.venv/bin/nasplan serve",
    url: `http://127.0.0.1:${PORT}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: `sqlite:///${database}`,
      NASPLAN_PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      // One JSON line per request would drown the test report; warnings and errors still show.
      NASPLAN_LOG_LEVEL: "WARNING",
    },
  },
});

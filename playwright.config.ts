import { defineConfig } from '@playwright/test';
import { e2ePortsForRun } from './tests/e2e/ports.ts';

/**
 * End-to-end tests in Debian's Chromium against the built app served by the real server, with a
 * fresh data directory (embedded PostgreSQL unless DATABASE_URL is set). The server and the
 * receivers the specs start take free ports the system hands out (E2E_PORT fixes the server's):
 * tests/e2e/ports.ts.
 */
const ports = e2ePortsForRun();
const baseURL = `http://localhost:${ports.server}`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    // The browser asks for reduced motion, so toasts and dialogs appear without a fade: axe judges
    // colours as users see them at rest, never a toast caught half faded in or out (a CI failure).
    reducedMotion: 'reduce',
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'bash tests/e2e/start-server.sh',
    url: `${baseURL}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(ports.server),
      APP_URL: baseURL,
      // Where the specs' receivers listen (helpers.ts, review-workflow.spec.ts).
      NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${ports.completionReceiver}/completion`,
      NPPES_API_URL: `http://127.0.0.1:${ports.nppes}/api/`,
    },
  },
});

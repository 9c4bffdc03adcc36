import { defineConfig } from '@playwright/test';
import { baseUrl, servers } from './support/servers.js';

/**
 * E2E_DEMO=1 runs only tests/demo.spec.ts, which starts `npm run demo` itself on E2E_PORT_BASE
 * (so none of the servers below); every other run leaves it out.
 */
const demoOnly = process.env.E2E_DEMO === '1';

export default defineConfig({
  testDir: './tests',
  ...(demoOnly ? { testMatch: ['**/demo.spec.ts'] } : { testIgnore: ['**/demo.spec.ts'] }),
  outputDir: './test-results',
  timeout: 60_000,
  // The API suite runs beside this one in CI (scripts/test-all.mjs): a screen that answers in 6 s
  // on a loaded machine is slow, not broken.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    browserName: 'chromium',
    viewport: { width: 1366, height: 800 },
    // The console honours the system's reduced-motion setting: dialogs open without zooming in, so
    // a click never lands on a button that is still moving (and no test waits for an animation).
    reducedMotion: 'reduce',
    // A click that can never happen fails at its own line instead of at the test's time limit.
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  webServer: (demoOnly ? [] : Object.values(servers)).map((server) => ({
    command: 'npx tsx e2e/support/serve.ts',
    cwd: '..',
    url: `http://127.0.0.1:${server.port}/platform/config/runtime`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe' as const,
    env: {
      PORT: String(server.port),
      MQTT_PORT: '0',
      DATA_DIR: server.dataDir,
      ROLE_FLAG: server.roleFlag,
      FLEET: String(server.fleet),
      ...(server.platform
        ? { PLATFORM_URL: baseUrl(server.platform), SERVER_REPORT_INTERVAL_MS: '2000' }
        : {}),
      BASE_URL: `http://127.0.0.1:${server.port}`,
      TITLE: server.roleFlag === '1' ? 'OTA Service Desk' : 'PanelFleet',
      // Dashboards: the fleet gauges and history are sampled every few seconds, not every 5 minutes.
      HISTORY_SAMPLE_MS: '3000',
      // Webhooks (issue 26): the tests' receivers listen on loopback, which only this setting allows.
      OUTBOUND_ALLOW_PRIVATE: 'on',
      // Single sign-on (issue 29): the spec's identity provider answers over plain http on loopback.
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    },
  })),
});

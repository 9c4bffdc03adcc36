import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePrerequisites, installLine, prerequisites } from './prerequisites.mjs';

const root = path.resolve(import.meta.dirname, '..');

function fakeChecks(installed) {
  return ['chromium', 'fonts-wqy-microhei', 'mosquitto'].map((pkg) => ({
    pkg,
    why: `why ${pkg}`,
    present: () => installed.has(pkg),
  }));
}

function recorder() {
  const lines = { log: [], error: [], run: [] };
  return {
    lines,
    log: (line) => lines.log.push(line),
    error: (line) => lines.error.push(line),
  };
}

describe('Debian prerequisites of the test command', () => {
  it('names every package the suites need', () => {
    const names = prerequisites.map((check) => check.pkg);
    for (const pkg of ['chromium', 'fonts-wqy-microhei', 'mosquitto', 'mosquitto-clients', 'ffmpeg', 'nginx'])
      expect(names).toContain(pkg);
  });

  it('prints the one apt-get line and stops when not root', () => {
    const out = recorder();
    const ran = [];
    const ok = ensurePrerequisites({
      checks: fakeChecks(new Set(['mosquitto'])),
      isRoot: false,
      run: (command, args) => ran.push([command, ...args]) && 0,
      ...out,
    });
    expect(ok).toBe(false);
    expect(ran).toEqual([]);
    expect(out.lines.error.join('\n')).toContain(installLine(['chromium', 'fonts-wqy-microhei']));
    expect(installLine(['chromium', 'fonts-wqy-microhei'])).toBe(
      'sudo apt-get install -y chromium fonts-wqy-microhei',
    );
  });

  it('installs what is missing as root, then checks again', () => {
    const installed = new Set(['mosquitto']);
    const ran = [];
    const out = recorder();
    const ok = ensurePrerequisites({
      checks: fakeChecks(installed),
      isRoot: true,
      run: (command, args) => {
        ran.push([command, ...args].join(' '));
        if (args[0] === 'install') for (const pkg of args.slice(1)) installed.add(pkg);
        return 0;
      },
      ...out,
    });
    expect(ok).toBe(true);
    expect(ran).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium fonts-wqy-microhei']);
  });

  it('fails as root when apt-get leaves a package out', () => {
    const out = recorder();
    const ok = ensurePrerequisites({
      checks: fakeChecks(new Set()),
      isRoot: true,
      run: () => 0,
      ...out,
    });
    expect(ok).toBe(false);
    expect(out.lines.error.join('\n')).toContain(
      'still missing after apt-get: chromium fonts-wqy-microhei mosquitto',
    );
  });

  it('runs nothing when everything is there', () => {
    const out = recorder();
    const ok = ensurePrerequisites({
      checks: fakeChecks(new Set(['chromium', 'fonts-wqy-microhei', 'mosquitto'])),
      isRoot: true,
      run: () => {
        throw new Error('nothing to install');
      },
      ...out,
    });
    expect(ok).toBe(true);
    expect(out.lines.log).toEqual([]);
  });

  it('is the first step of npm test and the only copy in .ci/run', () => {
    const testAll = fs.readFileSync(path.join(root, 'scripts/test-all.mjs'), 'utf8');
    const check = testAll.indexOf('if (!ensurePrerequisites()) process.exit(1);');
    expect(check).toBeGreaterThan(0);
    expect(check).toBeLessThan(testAll.indexOf('spawn('));
    expect(check).toBeLessThan(testAll.indexOf('await '));
    const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toContain('node scripts/prerequisites.mjs');
    expect(ci).not.toMatch(/apt-get|command -v|fc-list/);
    expect(ci.indexOf('node scripts/prerequisites.mjs')).toBeLessThan(ci.indexOf('npm ci'));
  });
});

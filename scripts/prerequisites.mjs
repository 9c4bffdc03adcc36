// The Debian packages the test suites need outside node_modules, checked before anything runs so
// that no run fails deep inside the e2e for a missing browser or broker. As root the missing ones
// are installed with apt-get; otherwise the one `apt-get install` line is printed and the run
// stops. Used by `npm test` (scripts/test-all.mjs) and by `.ci/run`: the one list of them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Daemons such as mosquitto and nginx live in sbin, which a non-root PATH often leaves out.
const searchDirs = () => [
  ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean),
  '/usr/local/sbin',
  '/usr/sbin',
  '/sbin',
];

export function commandExists(name) {
  return searchDirs().some((dir) => {
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function fontInstalled(pattern) {
  if (!commandExists('fc-list')) return false;
  const listed = spawnSync('fc-list', [], { encoding: 'utf8' });
  return listed.status === 0 && pattern.test(listed.stdout);
}

/** Each Debian package and how to tell it is there. */
export const prerequisites = [
  {
    pkg: 'chromium',
    why: 'the e2e browser',
    present: () =>
      process.env.CHROMIUM_PATH ? fs.existsSync(process.env.CHROMIUM_PATH) : commandExists('chromium'),
  },
  { pkg: 'fontconfig', why: 'font lookup', present: () => commandExists('fc-list') },
  {
    pkg: 'fonts-wqy-microhei',
    why: 'the CJK font the zh-CN screens and reports render with',
    present: () => fontInstalled(/wenquanyi|wqy/i),
  },
  { pkg: 'mosquitto', why: 'the external-broker tests', present: () => commandExists('mosquitto') },
  { pkg: 'mosquitto-clients', why: 'the broker probes', present: () => commandExists('mosquitto_sub') },
  { pkg: 'ffmpeg', why: 'video posters', present: () => commandExists('ffmpeg') },
  { pkg: 'nginx', why: 'the fault suite balancer', present: () => commandExists('nginx') },
  { pkg: 'curl', why: "the benchmark guard's download client", present: () => commandExists('curl') },
];

export function missingPackages(checks = prerequisites) {
  return checks.filter((check) => !check.present()).map((check) => check.pkg);
}

export function installLine(packages) {
  return `sudo apt-get install -y ${packages.join(' ')}`;
}

function runCommand(command, args) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status ?? 1;
}

/**
 * Checks the prerequisites and installs the missing ones when running as root. Returns true when
 * every one is there at the end; otherwise it has said what to do.
 */
export function ensurePrerequisites({
  checks = prerequisites,
  isRoot = process.getuid?.() === 0,
  run = runCommand,
  log = console.log,
  error = console.error,
} = {}) {
  const missing = missingPackages(checks);
  if (missing.length === 0) return true;
  const described = checks
    .filter((check) => missing.includes(check.pkg))
    .map((check) => `${check.pkg} (${check.why})`)
    .join(', ');
  if (!isRoot) {
    error(`missing Debian packages: ${described}. Install them with:\n  ${installLine(missing)}`);
    return false;
  }
  log(`installing missing Debian packages: ${described}`);
  if (run('apt-get', ['update', '-qq']) !== 0 || run('apt-get', ['install', '-y', '-qq', ...missing]) !== 0) {
    error(`apt-get could not install ${missing.join(' ')}`);
    return false;
  }
  const still = missingPackages(checks);
  if (still.length > 0) {
    error(`still missing after apt-get: ${still.join(' ')}`);
    return false;
  }
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.exit(ensurePrerequisites() ? 0 : 1);
}

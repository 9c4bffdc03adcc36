import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The newest PostgreSQL server binaries installed from Debian's packages, if any. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((v) => path.join(root, v, 'bin'))
    .find((bin) => fs.existsSync(path.join(bin, 'initdb')));
  return found;
}

const bin = postgresBin();
const isRoot = process.getuid?.() === 0;
/** initdb refuses root: as root the cluster is made and run as the `postgres` user. */
const asPostgres = (command: string, args: string[]) =>
  isRoot ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args };
const postgresUserExists = !isRoot || spawnSync('id', ['postgres']).status === 0;

/** A throwaway PostgreSQL cluster can be made here (server binaries, and a user to run them as). */
export const canRunThrowawayCluster = bin !== undefined && postgresUserExists;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

export interface ThrowawayCluster {
  url: string;
  /** `pg_ctl stop -m fast`: connected clients get 57P01, as when an operator stops the database. */
  stop(): void;
  start(): void;
  /** SIGSTOP to the postmaster and every backend: the database stops answering, sockets stay open. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

/** A PostgreSQL cluster of its own on a free port, owned by the test that made it. */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-pg-'));
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  if (isRoot) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  const run = (tool: string, args: string[]) => {
    const { command, args: full } = asPostgres(path.join(bin, tool), args);
    execFileSync(command, full, { stdio: 'pipe' });
  };
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  start();
  const pids = () => {
    const postmaster = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
    const children = spawnSync('pgrep', ['-P', postmaster], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
    return [postmaster, ...children];
  };
  const signal = (name: string) => execFileSync('kill', [`-${name}`, ...pids()]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    start,
    freeze: () => signal('STOP'),
    thaw: () => signal('CONT'),
    destroy() {
      if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) {
        signal('CONT');
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

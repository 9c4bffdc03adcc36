import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The fault suite's own infrastructure besides the server instances: Debian's nginx as the
 * balancer, with the configuration that docs/operations.md ships, and the check that the Debian
 * programs it runs are installed.
 */

const NGINX = '/usr/sbin/nginx';
const MOSQUITTO = '/usr/sbin/mosquitto';

/** Throws, naming the Debian package, when a program the suite runs is missing. */
export function requirePrograms() {
  const missing = [
    { binary: MOSQUITTO, pkg: 'mosquitto' },
    { binary: NGINX, pkg: 'nginx' },
  ].filter((p) => !fs.existsSync(p.binary));
  if (missing.length)
    throw new Error(
      `the fault suite needs ${missing.map((p) => p.binary).join(' and ')}: install the Debian package${missing.length > 1 ? 's' : ''} with \`apt-get install ${missing.map((p) => p.pkg).join(' ')}\``,
    );
}

const operationsDoc = new URL('../../../../docs/operations.md', import.meta.url).pathname;

/** The nginx block of docs/operations.md, section "A balancer in front (nginx)", as written there. */
export function documentedNginxConfig(): string {
  const text = fs.readFileSync(operationsDoc, 'utf8');
  const section = text.split('\n## A balancer in front (nginx)\n')[1]?.split('\n## ')[0];
  const block = section?.match(/```nginx\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error(`${operationsDoc} has no nginx block under "A balancer in front (nginx)"`);
  return block;
}

/**
 * The documented block with only what differs on one machine replaced: the upstream's addresses
 * (the instances), the listen line (plain HTTP on the loopback instead of TLS on 443) and the
 * instances' DATA_DIR/files/ that nginx sends downloads from.
 */
export function balancerConfig(
  documented: string,
  instances: string[],
  port: number,
  filesDir?: string,
): string {
  const upstream = /upstream panelfleet \{[^}]*\}/;
  const listen = /listen 443 ssl;/;
  const alias = /alias \/var\/lib\/panelfleet\/files\/;/;
  if (!upstream.test(documented) || !listen.test(documented) || !alias.test(documented))
    throw new Error('the documented nginx block changed shape: update the fault suite with it');
  return documented
    .replace(upstream, `upstream panelfleet { ${instances.map((a) => `server ${a};`).join(' ')} }`)
    .replace(listen, `listen 127.0.0.1:${port};`)
    .replace(alias, filesDir ? `alias ${path.join(filesDir, '/')};` : '$&');
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

export interface Balancer {
  url: string;
  conf: string;
  stop(): Promise<void>;
}

/** nginx in the foreground with a generated prefix: the documented block inside `http { }`. */
export async function startNginx(instances: string[], port: number, filesDir?: string): Promise<Balancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-faults-nginx-'));
  const conf = path.join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${dir}/${kind};`)
    .join(' ');
  fs.writeFileSync(
    conf,
    [
      // Started by root, nginx's workers would drop to `nobody` and could not read the private temp dirs.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events { worker_connections 4096; }',
      `http { access_log off; ${temp}`,
      balancerConfig(documentedNginxConfig(), instances, port, filesDir),
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; !(await listening(port)); i++) {
    if (child.exitCode !== null || i > 200)
      throw new Error(`nginx did not start (exit ${child.exitCode}): ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    conf,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

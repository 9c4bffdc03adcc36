/**
 * Debian's nginx as a download peer: a throwaway config with one 127.0.0.1 server over a directory
 * (sendfile on, one worker). The worker does the sending, so its pid is what a benchmark reads
 * CPU from; the master only waits. A machine without nginx is an error, not a skipped baseline.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { childPids } from './cpu.js';
import { freePort, onCleanup, sleep, stopChild, tempDir } from './harness.js';

export interface NginxProcess {
  port: number;
  masterPid: number;
  /** The one worker process, which serves every request. */
  workerPid: number;
  stop(): Promise<void>;
}

export function nginxBinary(): string {
  try {
    return execFileSync('which', ['nginx']).toString().trim();
  } catch {
    throw new Error(
      "nginx is not installed (`which nginx` finds nothing): it is this benchmark's peer; install it with `apt-get install nginx-light`",
    );
  }
}

async function answers(port: number) {
  return new Promise<boolean>((resolve) => {
    http
      .get(`http://127.0.0.1:${port}/`, (res) => (res.resume(), resolve(true)))
      .on('error', () => resolve(false));
  });
}

/**
 * nginx serving `root` as a plain static server, or, with `accel`, in front of a PanelFleet
 * server: requests go to it, and the downloads it answers with X-Accel-Redirect are sent by
 * nginx from `root` (the internal location of docs/operations.md, "Downloads sent by nginx").
 */
export async function startNginx(
  root: string,
  workerConnections = 4096,
  accel?: { upstreamPort: number; location: string },
): Promise<NginxProcess> {
  const binary = nginxBinary();
  const dir = tempDir('pf-nginx-');
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    [
      // Started by root, nginx's workers would drop to `nobody` and could not read the private temp dirs.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      `events { worker_connections ${workerConnections}; }`,
      `http { access_log off; sendfile on; tcp_nopush on; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};`,
      accel
        ? `  server { listen 127.0.0.1:${port}; location / { proxy_pass http://127.0.0.1:${accel.upstreamPort}; } location ${accel.location} { internal; alias ${path.join(root, '/')}; etag off; add_header ETag $upstream_http_etag; } } }`
        : `  server { listen 127.0.0.1:${port}; root ${root}; } }`,
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = () => stopChild(child);
  onCleanup(stop);
  for (let i = 0; i < 100 && !(await answers(port)); i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    await sleep(50);
  }
  const workers = childPids(child.pid!);
  if (workers.length !== 1) throw new Error(`nginx started ${workers.length} worker processes, expected 1`);
  return { port, masterPid: child.pid!, workerPid: workers[0]!, stop };
}

/**
 * A download client that is not the bottleneck: Debian's curl (C) in several processes, each
 * fetching its share of the downloads one after the other into /dev/null. Every response must be
 * 200 with the whole file. The clients' own CPU comes from the shell's `times` after curl ends.
 */
import { execFileSync, spawn } from 'node:child_process';

export interface CurlRound {
  bytes: number;
  wallSeconds: number;
  /** CPU seconds of each curl process. */
  clientCpu: number[];
}

export function curlBinary(): string {
  try {
    return execFileSync('which', ['curl']).toString().trim();
  } catch {
    throw new Error(
      'curl is not installed: it is the download client of this benchmark (`apt-get install curl`)',
    );
  }
}

/** "0m1.230s 0m0.040s" -> 1.27 */
const seconds = (line: string) =>
  line
    .trim()
    .split(/\s+/)
    .map((part) => /(\d+)m([\d.]+)s/.exec(part))
    .reduce((total, m) => total + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);

function oneProcess(curl: string, url: string, headers: Record<string, string>, count: number, size: number) {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const each = Array.from({ length: count }, () => [url, '-o', '/dev/null']).flat();
  // `times` prints the shell's and then its children's user and system time.
  const script = '"$@"; status=$?; times; exit $status';
  const args = [curl, '-s', '-S', '--fail', '-w', '%{http_code} %{size_download}\\n', ...headerArgs, ...each];
  return new Promise<{ bytes: number; cpu: number }>((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = out.trim().split('\n');
      const results = lines.slice(0, count).map((line) => line.split(' ').map(Number));
      const bad = results.find(([status, bytes]) => status !== 200 || bytes !== size);
      if (code !== 0 || results.length !== count || bad)
        return reject(new Error(`curl ${url}: exit ${code}, ${JSON.stringify(results)} ${err}`));
      resolve({ bytes: count * size, cpu: seconds(lines[lines.length - 1] ?? '') });
    });
  });
}

/** `downloads` GETs of `url` (each `size` bytes), spread over `processes` curl processes. */
export async function curlDownloads(options: {
  url: string;
  headers?: Record<string, string>;
  downloads: number;
  processes: number;
  size: number;
}): Promise<CurlRound> {
  const curl = curlBinary();
  const t0 = performance.now();
  const shares = Array.from(
    { length: options.processes },
    (_, p) =>
      Math.floor(options.downloads / options.processes) + (p < options.downloads % options.processes ? 1 : 0),
  ).filter((n) => n > 0);
  const results = await Promise.all(
    shares.map((count) => oneProcess(curl, options.url, options.headers ?? {}, count, options.size)),
  );
  return {
    bytes: results.reduce((n, r) => n + r.bytes, 0),
    wallSeconds: (performance.now() - t0) / 1000,
    clientCpu: results.map((r) => r.cpu),
  };
}

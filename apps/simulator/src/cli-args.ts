import { parseArgs } from 'node:util';

const options = {
  devices: { type: 'string', default: '10' },
  server: { type: 'string', default: 'http://127.0.0.1:8080' },
  mqtt: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
  secret: { type: 'string' },
  prefix: { type: 'string', default: 'SIM' },
  telemetry: { type: 'string', default: '10000' },
  'ota-fail-rate': { type: 'string', default: '0' },
  'ota-corrupt-rate': { type: 'string', default: '0' },
  /** Comma-separated serial numbers of panels whose every OTA install fails. */
  'ota-fail-serials': { type: 'string', default: '' },
  'install-ms': { type: 'string', default: '5000' },
  'utc-offset': { type: 'string', default: '480' },
  'history-days': { type: 'string', default: '0' },
  /** shanghai: every panel reports a position near Shanghai; spread: panels in several cities, some placed by IP only. */
  places: { type: 'string', default: 'shanghai' },
} as const;

/**
 * The simulator's options. Every option takes a value, so the word after `--name` is always its
 * value, even when it starts with `-` (an enrollment secret is base64url and may well do so);
 * node's parseArgs would refuse that as ambiguous, so `--name value` is joined into `--name=value`.
 */
export function parseCliArgs(argv: string[]) {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name !== undefined && name in options && i + 1 < argv.length) joined.push(`${arg}=${argv[++i]!}`);
    else joined.push(arg);
  }
  return parseArgs({ args: joined, options }).values;
}

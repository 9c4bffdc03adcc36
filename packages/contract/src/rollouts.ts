/**
 * Shared rules of rollouts (OTA firmware today; APK installs and program publishing reuse them):
 * the life of a task and of each panel in it, version order, the policy filters' formats, and
 * the constants of spec 3 section 9 (description languages, time zones).
 */

/** A task's life. `missed`: a timed task whose server was down past its late window. */
export const TASK_STATES = ['scheduled', 'running', 'paused', 'completed', 'cancelled', 'missed'] as const;
export type TaskState = (typeof TASK_STATES)[number];
/** Tasks that may still change (the spec's deviceUpgradeState "0"). */
export const OPEN_TASK_STATES: readonly TaskState[] = ['scheduled', 'running', 'paused'];

/**
 * One panel's life in a task: queued (its wave has not reached it, or no download slot is free),
 * waiting (a policy window opens later), sent (the order is on its way), downloading (n%),
 * verifying, installing, then succeeded, failed (reason), cancelled or skipped (reason).
 */
export const TARGET_STATES = [
  'queued',
  'waiting',
  'sent',
  'downloading',
  'verifying',
  'installing',
  'succeeded',
  'failed',
  'cancelled',
  'skipped',
] as const;
export type TargetState = (typeof TARGET_STATES)[number];
export const FINAL_TARGET_STATES: readonly TargetState[] = ['succeeded', 'failed', 'cancelled', 'skipped'];
/** A panel in these states holds one of the download slots. */
export const DOWNLOADING_TARGET_STATES: readonly TargetState[] = ['sent', 'downloading'];

/**
 * Why a panel was skipped (decided by the server) or failed (reported by the panel, or expired).
 * The console translates `ota.reason.<key>`.
 */
export const SKIP_REASONS = [
  'machineType',
  'fromVersion',
  'upToDate',
  'downgrade',
  'disabled',
  'ipNotAllowed',
  'noPublicIp',
  'timeZoneNotListed',
  'timeZoneUnknown',
  'serialNotListed',
  'lateWindowPassed',
  // An app install: the panel's installed app of the package has another signer.
  'signerDiffers',
] as const;
export const FAIL_REASONS = [
  'download',
  'checksum',
  'signature',
  'model',
  'fromVersion',
  'downgrade',
  'install',
  'expired',
  'unsupported',
  // The server's: the panel's step did not move, and it listened but left the question unanswered.
  'timedOut',
] as const;
export const CANCEL_REASONS = ['operator', 'taskCancelled'] as const;

/** OTA log status (spec 3 section 4): 0 waiting for update, 1 success, 2 failed, 3 abnormal (skipped, cancelled). */
export const OTA_LOG_STATUSES = ['0', '1', '2', '3'] as const;
export type OtaLogStatus = (typeof OTA_LOG_STATUSES)[number];
export function otaLogStatus(state: TargetState): OtaLogStatus {
  if (state === 'succeeded') return '1';
  if (state === 'failed') return '2';
  if (state === 'cancelled' || state === 'skipped') return '3';
  return '0';
}
/** The target states each OTA log status stands for. */
export const TARGET_STATES_OF_LOG_STATUS: Record<OtaLogStatus, readonly TargetState[]> = {
  '0': ['queued', 'waiting', 'sent', 'downloading', 'verifying', 'installing'],
  '1': ['succeeded'],
  '2': ['failed'],
  '3': ['cancelled', 'skipped'],
};

/**
 * Orders versions: numeric runs compare as numbers, other runs as text ("1.10.0" > "1.9.3",
 * "2.0-rc1" < "2.0-rc2"). Negative when a is older than b, 0 when equal.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.trim().match(/\d+|[^\d.\-_+]+/g) ?? [];
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) {
      const d = Number(x) - Number(y);
      if (d !== 0) return d < 0 ? -1 : 1;
    } else if (x !== y) return nx ? 1 : ny ? -1 : x < y ? -1 : 1;
  }
  return 0;
}

/** A firmware version as files and panels name it. */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/** A dotted IPv4 address (spec 3: 请填写正确的IP地址), or a CIDR block such as 10.0.0.0/8. */
export function isIpv4OrCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.trim().split('/');
  if (rest.length || !IPV4.test(address ?? '')) return false;
  return prefix === undefined || (/^\d{1,2}$/.test(prefix) && Number(prefix) <= 32);
}

function ipv4Number(address: string): number | undefined {
  if (!IPV4.test(address)) return undefined;
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** True when `address` (IPv4) is the entry itself or inside its CIDR block. */
export function ipMatches(entry: string, address: string): boolean {
  const [base, prefix] = entry.split('/');
  const a = ipv4Number(address.trim());
  const b = ipv4Number(base ?? '');
  if (a === undefined || b === undefined) return false;
  const bits = prefix === undefined ? 32 : Number(prefix);
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}

/** Time zones of policies (spec 3 section 9): whole hours -11..+12 and the listed half and quarter hours. */
export const TIME_ZONE_OFFSETS: readonly number[] = [
  ...Array.from({ length: 24 }, (_, i) => (i - 11) * 60),
  -150,
  210,
  270,
  330,
  345,
  390,
  570,
].sort((a, b) => a - b);

/** "GMT+08:00" for 480 minutes east of UTC. */
export function timeZoneName(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
export const TIME_ZONES: readonly string[] = TIME_ZONE_OFFSETS.map(timeZoneName);

/** Minutes east of UTC of a zone of the list, or undefined for anything else. */
export function timeZoneOffset(name: string): number | undefined {
  const index = TIME_ZONES.indexOf(name.trim());
  return index < 0 ? undefined : TIME_ZONE_OFFSETS[index];
}

/** Languages of OTA descriptions and reminders (spec 3 section 9, 36 codes, as the spec spells them). */
export const DESCRIPTION_LANGUAGES = [
  'en_US',
  'zh_CN',
  'zh_TW',
  'ja_JP',
  'es_ES',
  'it_IT',
  'fi_FI',
  'da_DA',
  'fr_FR',
  'ru_RU',
  'sv_SV',
  'pl_PL',
  'de_DE',
  'nl_BC',
  'nl_ED',
  'ca_ES',
  'ca_AA',
  'ca_VL',
  'gl_ES',
  'eu_ES',
  'fr_LU',
  'de_LU',
  'kk_KZ',
  'et_EE',
  'lv_',
  'lt_',
  'sk_',
  'cs_',
  'hu_',
  'ro_',
  'bg_',
  'hr_',
  'sl_',
  'uk_',
  'ko_kr',
  'nl_',
] as const;
export type DescriptionLanguage = (typeof DESCRIPTION_LANGUAGES)[number];

/** "yyyy-MM-dd HH:mm[:ss]" read as a local time `utcOffsetMinutes` east of UTC; undefined if not a real time. */
export function parseLocalDateTime(text: string, utcOffsetMinutes: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const utc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s ?? 0);
  const back = new Date(utc);
  if (
    back.getUTCFullYear() !== y ||
    back.getUTCMonth() !== mo! - 1 ||
    back.getUTCDate() !== d ||
    h! > 23 ||
    mi! > 59 ||
    (s ?? 0) > 59
  )
    return undefined;
  return utc - utcOffsetMinutes * 60_000;
}

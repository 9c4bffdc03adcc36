import crypto from 'node:crypto';
import type { device } from '@panelfleet/contract';

/** A stand-in for a vendor's signing certificate: the same vendor signs all its apps. */
export const vendorSigner = (vendor: string) =>
  crypto.createHash('sha256').update(`signer:${vendor}`).digest('hex');

type Seed = Omit<device.InstalledApp, 'signerSha256'> & { vendor: string };

const app = ({ vendor, ...rest }: Seed): device.InstalledApp => ({
  ...rest,
  signerSha256: vendorSigner(vendor),
});

/** A realistic app list: Android system apps plus the apps a school installs. */
export function initialApps(seed: number): device.InstalledApp[] {
  const system: device.InstalledApp[] = [
    {
      appName: 'Settings',
      packageName: 'com.android.settings',
      versionName: '11',
      versionCode: 30,
      vendor: 'platform',
    },
    {
      appName: 'Launcher',
      packageName: 'com.panel.launcher',
      versionName: '3.2.0',
      versionCode: 320,
      vendor: 'platform',
    },
    {
      appName: 'File Manager',
      packageName: 'com.panel.files',
      versionName: '2.0.4',
      versionCode: 204,
      vendor: 'platform',
    },
    {
      appName: 'Screen Share',
      packageName: 'com.panel.cast',
      versionName: '5.1.1',
      versionCode: 511,
      vendor: 'platform',
    },
  ].map((a, i) => app({ ...a, appSize: [18_400_000, 9_800_000, 6_100_000, 31_000_000][i]!, appLevel: 1 }));
  const user: device.InstalledApp[] = [
    {
      appName: 'Whiteboard',
      packageName: 'com.panel.whiteboard',
      versionName: '4.6.2',
      versionCode: 40602,
      appSize: 88_000_000,
      vendor: 'panel',
    },
    {
      appName: 'Chrome',
      packageName: 'com.android.chrome',
      versionName: '120.0.6099',
      versionCode: 609914,
      appSize: 210_000_000,
      vendor: 'google',
    },
    {
      appName: 'WPS Office',
      packageName: 'cn.wps.moffice_eng',
      versionName: '18.5',
      versionCode: 1850,
      appSize: 160_000_000,
      vendor: 'wps',
    },
    {
      appName: 'Zoom',
      packageName: 'us.zoom.videomeetings',
      versionName: '5.17.0',
      versionCode: 517000,
      appSize: 120_000_000,
      vendor: 'zoom',
    },
    {
      appName: 'VLC',
      packageName: 'org.videolan.vlc',
      versionName: '3.5.4',
      versionCode: 13050408,
      appSize: 45_000_000,
      vendor: 'videolan',
    },
  ].map((a) => app({ ...a, appLevel: 0 }));
  // Not every panel has every user app.
  return [...system, ...user.filter((_, i) => (seed + i) % 4 !== 0)];
}

const WORDS = [
  'classroom',
  'reader',
  'whiteboard',
  'calendar',
  'attendance',
  'mathematics',
  'geography',
  'chemistry',
  'notes',
  'recorder',
  'translator',
  'dictionary',
  'timetable',
  'library',
  'projector',
  'conference',
  'keyboard',
  'browser',
  'gallery',
  'scanner',
  'weather',
  'assistant',
  'messenger',
  'presenter',
];
const VENDORS = [
  'com.eduvision',
  'cn.smartclass',
  'com.brightboard',
  'org.openschool',
  'com.tencent',
  'com.baidu',
];

/**
 * `count` installed apps as a panel full of apps reports them: reverse-DNS package names, display
 * names of a few words (some in Chinese), dotted versions, versionCodes, sizes, signers, icons.
 */
export function realisticApps(count: number): device.InstalledApp[] {
  return Array.from({ length: count }, (_, i) => {
    const vendor = VENDORS[i % VENDORS.length]!;
    const a = WORDS[i % WORDS.length]!;
    const b = WORDS[(i * 7 + 3) % WORDS.length]!;
    const name = i % 5 === 0 ? `智慧课堂 ${a} ${i}` : `${a[0]!.toUpperCase()}${a.slice(1)} ${b} ${i}`;
    return {
      appName: name.slice(0, 128),
      packageName: `${vendor}.${a}.${b}${i}`,
      versionName: `${1 + (i % 9)}.${i % 17}.${(i * 13) % 100}-release`,
      versionCode: 100_000 + i * 37,
      appSize: 4_000_000 + ((i * 7_919_993) % 180_000_000),
      appLevel: i % 10 === 0 ? 1 : 0,
      iconName: `${vendor}.${a}.${b}${i}.png`,
      signerSha256: vendorSigner(vendor),
    };
  });
}

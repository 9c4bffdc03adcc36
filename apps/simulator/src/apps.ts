import type { device } from '@panelfleet/contract';

/** A realistic app list: Android system apps plus the apps a school installs. */
export function initialApps(seed: number): device.InstalledApp[] {
  const system: device.InstalledApp[] = [
    {
      appName: 'Settings',
      packageName: 'com.android.settings',
      versionName: '11',
      appSize: 18_400_000,
      appLevel: 1,
    },
    {
      appName: 'Launcher',
      packageName: 'com.panel.launcher',
      versionName: '3.2.0',
      appSize: 9_800_000,
      appLevel: 1,
    },
    {
      appName: 'File Manager',
      packageName: 'com.panel.files',
      versionName: '2.0.4',
      appSize: 6_100_000,
      appLevel: 1,
    },
    {
      appName: 'Screen Share',
      packageName: 'com.panel.cast',
      versionName: '5.1.1',
      appSize: 31_000_000,
      appLevel: 1,
    },
  ];
  const user: device.InstalledApp[] = [
    {
      appName: 'Whiteboard',
      packageName: 'com.panel.whiteboard',
      versionName: '4.6.2',
      appSize: 88_000_000,
      appLevel: 0,
    },
    {
      appName: 'Chrome',
      packageName: 'com.android.chrome',
      versionName: '120.0.6099',
      appSize: 210_000_000,
      appLevel: 0,
    },
    {
      appName: 'WPS Office',
      packageName: 'cn.wps.moffice_eng',
      versionName: '18.5',
      appSize: 160_000_000,
      appLevel: 0,
    },
    {
      appName: 'Zoom',
      packageName: 'us.zoom.videomeetings',
      versionName: '5.17.0',
      appSize: 120_000_000,
      appLevel: 0,
    },
    {
      appName: 'VLC',
      packageName: 'org.videolan.vlc',
      versionName: '3.5.4',
      appSize: 45_000_000,
      appLevel: 0,
    },
  ];
  // Not every panel has every user app.
  return [...system, ...user.filter((_, i) => (seed + i) % 4 !== 0)];
}

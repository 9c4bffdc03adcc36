import { describe, expect, it } from 'vitest';
import { clusterColor, markerSize, PanelClusters } from './clusters';

const panel = (id: number, lat: number, lon: number, online: boolean) => ({
  deviceId: id,
  deviceName: `P${id}`,
  deviceKey: `K${id}`,
  latitude: lat,
  longitude: lon,
  source: 'gps' as const,
  isOnline: online ? ('1' as const) : ('0' as const),
});

describe('PanelClusters', () => {
  const clusters = new PanelClusters([
    panel(1, 31.2, 121.4, true),
    panel(2, 31.21, 121.41, false),
    panel(3, 51.5, -0.1, true),
  ]);

  it('groups near panels at a low zoom, counting the online ones', () => {
    const points = clusters.at(2);
    expect(points).toHaveLength(2);
    const shanghai = points.find((p) => p.count === 2)!;
    expect(shanghai.online).toBe(1);
    expect(shanghai.expansionZoom).toBeGreaterThan(2);
    expect(clusterColor(shanghai)).toBe('#fa8c16');
    const london = points.find((p) => p.count === 1)!;
    expect(london.device?.deviceKey).toBe('K3');
    expect(clusterColor(london)).toBe('#52c41a');
  });

  it('shows every panel on its own when zoomed in', () => {
    expect(
      clusters
        .at(16)
        .map((p) => p.device?.deviceKey)
        .sort(),
    ).toEqual(['K1', 'K2', 'K3']);
  });
});

describe('map markers', () => {
  it('are large enough to see and click, a group larger than a panel, and never huge', () => {
    expect(markerSize(1)).toBeGreaterThanOrEqual(16);
    expect(markerSize(2)).toBeGreaterThan(markerSize(1));
    expect(markerSize(30)).toBeGreaterThan(markerSize(2));
    expect(markerSize(1_000_000)).toBe(48);
  });
});

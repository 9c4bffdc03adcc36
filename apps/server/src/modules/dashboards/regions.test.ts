import * as geo from '@panelfleet/contract/geo';
import { describe, expect, it } from 'vitest';
import { MapRegions } from './regions.js';

const regions = MapRegions.load();

describe('MapRegions', () => {
  it('finds provinces of the China map and counts them as China on the world map', () => {
    expect(regions.placeOf(31.23, 121.47)).toEqual({ country: 'China', province: '上海' });
    expect(regions.placeOf(39.9, 116.4)).toEqual({ country: 'China', province: '北京' });
    expect(regions.placeOf(23.13, 113.26)).toEqual({ country: 'China', province: '广东' });
    expect(regions.placeOf(30.27, 120.15)).toEqual({ country: 'China', province: '浙江' });
    // Near features whose map data holds empty polygons.
    expect(regions.placeOf(40.07, 116.53)).toEqual({ country: 'China', province: '北京' });
    expect(regions.placeOf(30.68, 104.26)).toEqual({ country: 'China', province: '四川' });
  });

  it('finds countries of the world map elsewhere', () => {
    expect(regions.placeOf(51.51, -0.09)).toEqual({ country: 'United Kingdom', province: '' });
    expect(regions.placeOf(37.42, -122.08)).toEqual({ country: 'United States', province: '' });
    expect(regions.placeOf(-33.87, 151.21)).toEqual({ country: 'Australia', province: '' });
    expect(regions.placeOf(52.52, 13.4)).toEqual({ country: 'Germany', province: '' });
  });

  it('answers every point of a grid over the whole world without failing', () => {
    let placed = 0;
    for (let lat = -85; lat <= 85; lat += 5)
      for (let lon = -180; lon <= 180; lon += 5) if (regions.placeOf(lat, lon).country) placed++;
    expect(placed).toBeGreaterThan(300);
  });

  it('places a point at sea in no region', () => {
    expect(regions.placeOf(0, -30)).toEqual({ country: '', province: '' });
  });

  it('names every region of the maps the way the contract lists them', () => {
    for (const name of ['上海', '新疆', '香港']) expect(geo.PROVINCE_EN[name]).toBeDefined();
    expect(geo.WORLD_ISO2['United Kingdom']).toBe('GB');
    expect(geo.WORLD_NAME_OF_ISO2.US).toBe('United States');
  });
});

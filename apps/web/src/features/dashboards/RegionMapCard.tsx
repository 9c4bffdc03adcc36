import { useEffect, useState } from 'react';
import { Card, Segmented, Space, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { dashboard } from '@panelfleet/contract';
import { Chart } from './Chart';
import { mapScaleMax } from './format';
import { loadMap, nameMapOf, regionLabel, type MapName } from './maps';

/** The China/World map toggle with the located and unlocated counts (both dashboards). */
export function RegionMapCard({ data, height = 360 }: { data: dashboard.DashboardData; height?: number }) {
  const { t, i18n } = useTranslation();
  const [map, setMap] = useState<MapName>('china');
  const [ready, setReady] = useState<MapName | undefined>();
  useEffect(() => {
    let live = true;
    void loadMap(map).then(() => live && setReady(map));
    return () => {
      live = false;
    };
  }, [map]);
  const language = i18n.language;
  const points = (map === 'china' ? data.mapDataCN : data.mapDataNotCN).map((p) => ({
    name: regionLabel(map, p.name, language),
    value: p.value,
  }));
  const scaleMax = mapScaleMax(points);
  const option = {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value?: number }) => `${p.name}: ${p.value || 0}`,
    },
    visualMap: {
      min: 0,
      // The scale follows the data: the busiest region is the darkest.
      max: scaleMax,
      left: 8,
      bottom: 8,
      text: [t('dashboard.mapHigh'), t('dashboard.mapLow')],
      calculable: true,
      // Any panel at all shows: the scale starts at a clear blue (regions without panels stay grey).
      inRange: { color: ['#91caff', '#4096ff', '#0958d9', '#002c8c'] },
      itemHeight: 90,
    },
    series: [
      {
        type: 'map',
        map,
        roam: true,
        nameMap: nameMapOf(map, language),
        zoom: map === 'china' ? 1.2 : 1,
        itemStyle: { areaColor: '#f0f0f0', borderColor: '#bfbfbf' },
        emphasis: { label: { show: false } },
        data: points,
      },
    ],
  };
  return (
    <Card
      size="small"
      title={t('dashboard.map')}
      extra={
        <Segmented
          size="small"
          value={map}
          onChange={(value) => setMap(value as MapName)}
          options={[
            { value: 'china', label: <span data-testid="map-toggle-china">{t('dashboard.mapChina')}</span> },
            { value: 'world', label: <span data-testid="map-toggle-world">{t('dashboard.mapWorld')}</span> },
          ]}
        />
      }
    >
      <Space size={8} style={{ marginBottom: 4 }}>
        <Tag color="blue" data-testid="map-located" data-value={data.knownIpData}>
          {t('dashboard.located', { count: data.knownIpData, gps: data.locatedByPosition })}
        </Tag>
        <Tag data-testid="map-unlocated" data-value={data.unknownIpData}>
          {t('dashboard.unlocated', { count: data.unknownIpData })}
        </Tag>
      </Space>
      {ready === map ? (
        <div data-scale-max={scaleMax}>
          <Chart testId={`region-map-${map}`} option={option} height={height} />
        </div>
      ) : (
        <Spin style={{ display: 'block', margin: '120px auto' }} />
      )}
    </Card>
  );
}

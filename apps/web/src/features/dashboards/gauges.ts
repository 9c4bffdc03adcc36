import type { EChartsCoreOption } from './echarts';

/** A gauge of 0..max showing `value` with its unit, or "—" when nothing is known. */
export function gaugeOption(
  value: number | null,
  max: number,
  unit: string,
  title: string,
): EChartsCoreOption {
  return {
    series: [
      {
        type: 'gauge',
        min: 0,
        max,
        radius: '88%',
        center: ['50%', '55%'],
        splitNumber: 5,
        progress: { show: true, width: 10 },
        axisLine: { lineStyle: { width: 10 } },
        axisTick: { show: false },
        splitLine: { length: 6, distance: 2, lineStyle: { width: 1 } },
        axisLabel: { distance: 12, fontSize: 9, color: '#8c8c8c' },
        pointer: { width: 4, length: '55%' },
        anchor: { show: true, size: 8 },
        title: { offsetCenter: [0, '92%'], fontSize: 12 },
        detail: {
          valueAnimation: true,
          offsetCenter: [0, '62%'],
          fontSize: 16,
          formatter: value === null ? () => '—' : `{value}${unit}`,
        },
        data: [{ value: value ?? 0, name: title }],
      },
    ],
  };
}

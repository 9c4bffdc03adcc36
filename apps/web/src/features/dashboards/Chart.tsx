import ReactEChartsCore from 'echarts-for-react/esm/core';
import { echarts, type EChartsCoreOption } from './echarts';

interface ChartProps {
  option: EChartsCoreOption;
  height: number;
  testId: string;
  onEvents?: Record<string, (params: unknown) => void>;
  onChartReady?: (chart: echarts.ECharts) => void;
}

/** One ECharts chart (canvas), redrawn when its option changes. */
export function Chart({ option, height, testId, onEvents, onChartReady }: ChartProps) {
  return (
    <div data-testid={testId}>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        style={{ height, width: '100%' }}
        {...(onEvents ? { onEvents } : {})}
        {...(onChartReady ? { onChartReady } : {})}
      />
    </div>
  );
}

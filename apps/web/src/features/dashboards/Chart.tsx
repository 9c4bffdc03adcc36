import ReactEChartsCore from 'echarts-for-react/esm/core';
import { usePrefersReducedMotion } from '../../app/reducedMotion';
import { echarts, type EChartsCoreOption } from './echarts';

interface ChartProps {
  option: EChartsCoreOption;
  height: number;
  testId: string;
  onEvents?: Record<string, (params: unknown) => void>;
  onChartReady?: (chart: echarts.ECharts) => void;
}

/**
 * One ECharts chart (canvas), redrawn when its option changes; drawn without its grow-in
 * animation when the operator's system asks for less motion.
 */
export function Chart({ option, height, testId, onEvents, onChartReady }: ChartProps) {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <div data-testid={testId} data-animated={reducedMotion ? 'false' : 'true'}>
      <ReactEChartsCore
        echarts={echarts}
        option={reducedMotion ? { ...option, animation: false } : option}
        notMerge
        style={{ height, width: '100%' }}
        {...(onEvents ? { onEvents } : {})}
        {...(onChartReady ? { onChartReady } : {})}
      />
    </div>
  );
}

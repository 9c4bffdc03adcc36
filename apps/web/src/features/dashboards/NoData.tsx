import { Empty } from 'antd';

/**
 * What a chart shows when it has nothing to show: a sentence that says so, in the chart's place
 * and height, instead of a needle at a made-up position or an empty slice.
 */
export function NoData({ height, text, testId }: { height: number; text: string; testId: string }) {
  return (
    <div
      data-testid={testId}
      data-empty="true"
      style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />
    </div>
  );
}

import type { ReactNode } from 'react';
import { Typography } from 'antd';

/** One line of a cell: longer text ends in "…" and shows whole on hover. */
export function OneLine({ text, testId, secondary }: { text: string; testId?: string; secondary?: boolean }) {
  return (
    <Typography.Text
      data-testid={testId}
      type={secondary ? 'secondary' : undefined}
      ellipsis={{ tooltip: { title: text, placement: 'topLeft' } }}
      style={{ minWidth: 0, display: 'block' }}
    >
      {text}
    </Typography.Text>
  );
}

/**
 * Two values of a row in one column of a fixed-layout table: the first, then the second in grey
 * under it, each kept to the column's width (so a list of many fields fits 1366 px).
 */
export function TwoLines({ first, second }: { first: ReactNode; second: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>{first}</div>
      {typeof second === 'string' ? <OneLine text={second} secondary /> : second}
    </div>
  );
}

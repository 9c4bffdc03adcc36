import { Tooltip } from 'antd';
import type { screenTime } from '@panelfleet/contract';
import { slotLabel, type Sign } from './timeRange';

interface SlotChartProps {
  sign: Sign;
  slots: Array<{ startTime: number; endTime: number; totalTime: number }>;
  describe(slot: { startTime: number; totalTime: number }): string;
}

const HEIGHT = 120;

/**
 * Screen-on time per slot as bars: a full bar is a slot the screen was on throughout (an hour
 * today, a day for recent). Plain elements, so the chart costs the console no library.
 */
export function SlotChart({ sign, slots, describe }: SlotChartProps) {
  const width = sign === 'day' ? 3_600_000 : 86_400_000;
  // Today has 24 bars: label every third hour so the labels do not collide.
  const labelEvery = sign === 'day' ? 3 : 1;
  return (
    <div
      data-testid="screen-time-chart"
      style={{ display: 'flex', alignItems: 'flex-end', gap: 4, height: HEIGHT + 22, padding: '0 4px' }}
    >
      {slots.map((slot: screenTime.RtpDeviceTime['slots'][number], index) => {
        const share = Math.min(1, slot.totalTime / width);
        return (
          <Tooltip key={slot.startTime} title={describe(slot)}>
            <div
              style={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', minWidth: 0 }}
              data-testid="screen-time-slot"
              data-total={slot.totalTime}
            >
              <div
                style={{
                  width: '100%',
                  height: HEIGHT,
                  display: 'flex',
                  alignItems: 'flex-end',
                  background: 'rgba(0,0,0,0.04)',
                  borderRadius: 3,
                }}
              >
                <div
                  style={{
                    width: '100%',
                    height: `${share * 100}%`,
                    minHeight: slot.totalTime > 0 ? 2 : 0,
                    background: 'var(--ant-color-primary, #1677ff)',
                    borderRadius: 3,
                  }}
                />
              </div>
              <span
                style={{
                  fontSize: 11,
                  lineHeight: '20px',
                  whiteSpace: 'nowrap',
                  visibility: index % labelEvery === 0 ? 'visible' : 'hidden',
                }}
              >
                {slotLabel(sign, slot.startTime)}
              </span>
            </div>
          </Tooltip>
        );
      })}
    </div>
  );
}

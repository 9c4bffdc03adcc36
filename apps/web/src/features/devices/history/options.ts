import type { panelHistory } from '@panelfleet/contract';
import type { EChartsCoreOption } from '../../dashboards/echarts';

type History = panelHistory.PanelHistory;
type Point = panelHistory.HistoryPoint;

export interface SeriesSpec {
  name: string;
  points: Point[];
  value(point: Point): number | null;
  /** Values hold until the next change (brightness, volume) instead of being joined by slopes. */
  step?: boolean;
  /** On the second axis (its own scale). */
  right?: boolean;
}

const GIB = 1024 ** 3;

/** One line chart of a range: time on the x axis, a line per series; the range's ends fixed. */
export function lineOption(
  history: History,
  series: SeriesSpec[],
  axes: [string, string?],
): EChartsCoreOption {
  return {
    animation: false,
    grid: { left: 44, right: axes[1] ? 44 : 12, top: 28, bottom: 24 },
    tooltip: { trigger: 'axis' },
    legend: { top: 0, itemHeight: 8, textStyle: { fontSize: 11 } },
    xAxis: { type: 'time', min: history.from, max: history.to },
    yAxis: [
      { type: 'value', name: axes[0], nameTextStyle: { fontSize: 10 }, scale: true },
      ...(axes[1] ? [{ type: 'value', name: axes[1], nameTextStyle: { fontSize: 10 }, scale: true }] : []),
    ],
    series: series.map((s) => ({
      name: s.name,
      type: 'line',
      showSymbol: s.points.length < 60,
      connectNulls: false,
      ...(s.step ? { step: 'end' } : {}),
      yAxisIndex: s.right ? 1 : 0,
      // A stepped value holds to the end of the range.
      data: [
        ...s.points.map((p) => [p.at, s.value(p)]),
        ...(s.step && s.points.length ? [[history.to, s.value(s.points.at(-1)!)]] : []),
      ],
    })),
  };
}

/** Online (1) and offline (0) over the range, as a stepped line from the state at its start. */
export function presenceOption(
  history: History,
  labels: { online: string; offline: string },
): EChartsCoreOption {
  const start = history.onlineAtStart === null ? [] : [[history.from, history.onlineAtStart ? 1 : 0]];
  const changes = history.presence.map((p) => [p.at, p.online ? 1 : 0]);
  const last = changes.at(-1) ?? start.at(-1);
  return {
    animation: false,
    grid: { left: 60, right: 12, top: 8, bottom: 24 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time', min: history.from, max: history.to },
    yAxis: {
      type: 'value',
      min: 0,
      max: 1,
      interval: 1,
      axisLabel: { formatter: (v: number) => (v === 1 ? labels.online : labels.offline) },
    },
    series: [
      {
        type: 'line',
        step: 'end',
        areaStyle: { opacity: 0.2 },
        showSymbol: false,
        data: [...start, ...changes, ...(last ? [[history.to, last[1]]] : [])],
      },
    ],
  };
}

/** RAM used as a share of the total, in percent. */
export const ramShare = (p: Point) => (p.n2 !== null && p.n3 ? Math.round((p.n2 / p.n3) * 1000) / 10 : null);
/** RAM total in GiB (two decimals). */
export const ramTotalGib = (p: Point) => (p.n3 === null ? null : Math.round((p.n3 / GIB) * 100) / 100);

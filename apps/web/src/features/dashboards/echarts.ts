// ECharts through `echarts/core`: only the charts and components the dashboards use are bundled,
// and this module is reached only from the lazily loaded dashboard and map views.
import * as echarts from 'echarts/core';
import { BarChart, GaugeChart, LineChart, MapChart, PieChart, ScatterChart } from 'echarts/charts';
import {
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  GaugeChart,
  LineChart,
  MapChart,
  PieChart,
  ScatterChart,
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

export { echarts };
export type { EChartsCoreOption } from 'echarts/core';

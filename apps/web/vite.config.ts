/// <reference types="node" />
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

/** Paths the server answers; the console itself owns every other path. */
const SERVER_PATHS = [
  '/platform',
  '/kaptcha',
  '/server',
  '/serverLicense',
  '/sendData',
  '/sendMessage',
  '/material',
  '/rptDeviceTime',
  '/api-docs',
  '/mqtt',
];
/** Where `vite` and `vite preview` forward server paths; production serves both from one origin. */
const SERVER_URL = process.env.PANELFLEET_SERVER_URL ?? 'http://localhost:8080';

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  SERVER_PATHS.map((path) => [path, { target: SERVER_URL, ws: path === '/mqtt' }]),
);

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // antd's component libraries declare no `sideEffects`, so a module reached for one helper
        // is kept whole with what it imports: antd's Tooltip (in every Form) needs a colour class
        // of @rc-component/color-picker, whose index brought the whole colour picker and a collapse
        // panel into the sign-in page. Their modules only define components and helpers.
        moduleSideEffects: [{ test: /\/node_modules\/@rc-component\//, sideEffects: false }],
      },
    },
  },
  server: { proxy },
  preview: { proxy },
});

import type { CallDef } from '../call.js';
import * as accounts from './accounts.js';
import * as auth from './auth.js';
import * as servers from './servers.js';
import * as materials from './materials.js';
import * as notifications from './notifications.js';
import * as screenTime from './screen-time.js';
import * as sources from './sources.js';
import * as machineTypes from './machine-types.js';
import * as deviceCalls from '../device/calls.js';
import * as deviceRemoval from '../device/removal.js';
import * as labelCalls from '../device/label-calls.js';
import * as deviceSelection from '../device/selection.js';
import * as deviceDetail from './device-detail.js';
import * as panelHistory from './panel-history.js';
import * as settings from './settings.js';
import * as certificate from './certificate.js';
import * as uploads from './uploads.js';
import * as ota from './ota.js';
import * as otaRules from './ota-rules.js';
import * as reports from './reports.js';
import * as logs from './logs.js';
import * as tips from './tips.js';
import * as dashboard from './dashboard.js';
import * as live from './live.js';
import * as health from './health.js';
import * as apk from './apk.js';
import * as apkReplaced from './apk-replaced.js';
import * as programs from './programs.js';
import * as alerts from './alerts.js';
import * as webhooks from './webhooks.js';
import * as apiTokens from './api-tokens.js';
import * as identity from './identity.js';
import * as sso from './sso.js';
import * as screenshots from './screenshots.js';

const isCall = (value: unknown): value is CallDef =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'reply' in value;

/** Every call of the contract, for the OpenAPI document and the route coverage test. */
export const allCalls: CallDef[] = [
  auth,
  accounts,
  servers,
  deviceCalls,
  deviceRemoval,
  labelCalls,
  deviceSelection,
  materials,
  notifications,
  screenTime,
  sources,
  machineTypes,
  deviceDetail,
  panelHistory,
  settings,
  certificate,
  uploads,
  ota,
  otaRules,
  reports,
  logs,
  tips,
  dashboard,
  live,
  health,
  apk,
  apkReplaced,
  programs,
  alerts,
  webhooks,
  apiTokens,
  identity,
  sso,
  screenshots,
].flatMap((group) => (Object.values(group) as unknown[]).filter(isCall));

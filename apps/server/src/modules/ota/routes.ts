import { ota, otaRules } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { FirmwareSigner } from '../../security/firmware-signing.js';
import type { RolloutSettings } from '../rollouts/engine.js';
import type { OtaFileService } from './file-service.js';
import type { OtaRuleService } from './rule-service.js';
import type { OtaTaskService } from './task-service.js';
import type { OtaVersionService } from './version-service.js';

const ok = { hhtStatus: 'success' } as const;

export function otaRoutes(
  router: Router,
  s: {
    files: OtaFileService;
    rules: OtaRuleService;
    versions: OtaVersionService;
    tasks: OtaTaskService;
    signer: FirmwareSigner;
    settings: RolloutSettings;
  },
) {
  // ---- files ----
  router.add(ota.listOtaFiles, async ({ session, params }) => {
    const { rows, total } = await s.files.list(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(ota.getOtaFile, async ({ session, params }) => ({
    ...ok,
    dataObject: await s.files.one(session.user, params.otaFileId),
  }));
  router.add(ota.insertOtaFile, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { id: await s.files.add(session.user, ip, params) },
  }));
  router.add(ota.updateOtaFile, async ({ session, params, ip }) => {
    await s.files.update(session.user, ip, params.otaFileId, params);
    return ok;
  });
  router.add(ota.deleteOtaFile, async ({ session, params, ip }) => {
    await s.files.delete(session.user, ip, params.otaFileId);
    return ok;
  });
  router.add(ota.listOtaDescriptions, async ({ session, params }) => {
    const { rows, total } = await s.files.descriptions(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(ota.viewOtaDescription, async ({ session, params }) => {
    const { description } = await s.files.description(session.user, params.id);
    return { ...ok, listObject: description.textContent, dataObject: description };
  });
  router.add(ota.addOtaDescription, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { id: await s.files.addDescription(session.user, ip, params) },
  }));
  router.add(ota.updateOtaDescription, async ({ session, params, ip }) => {
    await s.files.updateDescription(session.user, ip, params);
    return ok;
  });
  router.add(ota.updateOtaRemind, async ({ session, params, ip }) => {
    await s.files.updateRemind(session.user, ip, params.id, params.remindText);
    return ok;
  });
  router.add(ota.deleteOtaDescription, async ({ session, params, ip }) => {
    await s.files.deleteDescription(session.user, ip, params.id);
    return ok;
  });
  router.add(ota.listMachineTypeOptions, async () => {
    const rows = await s.files.machineTypeOptions();
    return { ...ok, listObject: rows, totalRecords: rows.length };
  });
  router.add(ota.listOtaVersionOptions, async () => {
    const rows = await s.files.versionOptions();
    return { ...ok, listObject: rows, totalRecords: rows.length };
  });
  router.add(ota.listOtaRuleOptions, async ({ session }) => {
    const rows = await s.rules.options(session.user);
    return { ...ok, listObject: rows, totalRecords: rows.length };
  });
  router.add(ota.firmwareKey, async () => ({
    ...ok,
    dataObject: { algorithm: 'ed25519' as const, publicKey: s.signer.publicKeyBase64 },
  }));

  // ---- force upgrade and tasks ----
  router.add(ota.forceUpdate, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: await s.tasks.forceUpdate(session.user, ip, params),
  }));
  router.add(ota.listOtaTasks, async ({ session, params, language }) => {
    const { rows, total } = await s.tasks.list(session.user, language, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(ota.getOtaTask, async ({ session, params, language }) => ({
    ...ok,
    dataObject: await s.tasks.one(session.user, language, params.otaTaskId),
  }));
  router.add(ota.listOtaTaskDevices, async ({ session, params }) => {
    const { rows, total } = await s.tasks.devices(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(ota.cancelOtaTask, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { cancelled: await s.tasks.cancel(session.user, ip, params.otaTaskId) },
  }));
  router.add(ota.cancelOtaTaskDevice, async ({ session, params, ip }) => {
    await s.tasks.cancelDevice(session.user, ip, params.otaTaskId, params.deviceId);
    return ok;
  });
  router.add(ota.pauseOtaTask, async ({ session, params, ip }) => {
    await s.tasks.pause(session.user, ip, params.otaTaskId);
    return ok;
  });
  router.add(ota.resumeOtaTask, async ({ session, params, ip }) => {
    await s.tasks.resume(session.user, ip, params.otaTaskId);
    return ok;
  });
  router.add(ota.rolloutSettings, async () => ({
    ...ok,
    dataObject: {
      lateWindowMs: s.settings.lateWindowMs,
      maxDownloads: s.settings.maxDownloads,
      jitterMs: s.settings.jitterMs,
    },
  }));
  router.add(ota.listOtaLog, async ({ session, params }) => {
    const { rows, total } = await s.tasks.log(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });

  // ---- versions ----
  router.add(ota.listOtaVersions, async ({ session, params }) => {
    const { rows, total } = await s.versions.list(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(ota.insertOtaVersion, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { otaVersionId: await s.versions.add(session.user, ip, params) },
  }));
  router.add(ota.updateOtaVersion, async ({ session, params, ip }) => {
    await s.versions.update(session.user, ip, params.otaVersionId, params);
    return ok;
  });
  router.add(ota.deleteOtaVersion, async ({ session, params, ip }) => {
    await s.versions.delete(session.user, ip, params.otaVersionId);
    return ok;
  });

  // ---- policies ----
  router.add(otaRules.listOtaRules, async ({ session, params }) => {
    const { rows, total } = await s.rules.list(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(otaRules.insertOtaRule, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { otaRuleId: await s.rules.add(session.user, ip, params) },
  }));
  router.add(otaRules.updateOtaRule, async ({ session, params, ip }) => {
    await s.rules.update(session.user, ip, params.otaRuleId, params);
    return ok;
  });
  router.add(otaRules.deleteOtaRule, async ({ session, params, ip }) => {
    await s.rules.delete(session.user, ip, params.otaRuleId);
    return ok;
  });
  router.add(otaRules.listOtaRuleZones, async ({ session, params }) => {
    const { rows, total } = await s.rules.zones(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(otaRules.addOtaRuleZone, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { otaRuleListId: await s.rules.addZone(session.user, ip, params) },
  }));
  router.add(otaRules.updateOtaRuleZone, async ({ session, params, ip }) => {
    await s.rules.updateZone(session.user, ip, params);
    return ok;
  });
  router.add(otaRules.deleteOtaRuleZone, async ({ session, params, ip }) => {
    await s.rules.deleteZone(session.user, ip, params.otaRuleListId);
    return ok;
  });
  router.add(otaRules.listOtaRuleIps, async ({ session, params }) => {
    const { rows, total } = await s.rules.ips(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(otaRules.addOtaRuleIp, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { otaRuleWhiteId: await s.rules.addIp(session.user, ip, params.otaRuleId, params.ip) },
  }));
  router.add(otaRules.deleteOtaRuleIp, async ({ session, params, ip }) => {
    await s.rules.deleteIp(session.user, ip, params.otaRuleWhiteId);
    return ok;
  });
  router.add(otaRules.listOtaRuleSns, async ({ session, params }) => {
    const { rows, total } = await s.rules.serials(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(otaRules.addOtaRuleSns, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: await s.rules.addSerials(session.user, ip, params.otaRuleId, params.deviceKeys),
  }));
  router.add(otaRules.deleteOtaRuleSn, async ({ session, params, ip }) => {
    await s.rules.deleteSerial(session.user, ip, params.otaRuleSnId);
    return ok;
  });
  router.add(otaRules.clearOtaRuleSns, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { removed: await s.rules.clearSerials(session.user, ip, params.otaRuleId) },
  }));
}

import { OTA_TTL_MS } from '../commands/service.js';
import { storedApk } from '../downloads/apk.js';
import type { Decision, RolloutKind } from '../rollouts/kind.js';
import type { TaskRecord } from '../rollouts/repository.js';
import type { Candidate } from '../rollouts/target-repository.js';
import { signedByAnother } from './apk-signer.js';
import type { ApkRepository } from './repository.js';

/** What an install task keeps about its version (the display snapshot and the dispatch choice). */
export interface ApkPayload {
  versionId: number;
  packageName: string;
  versionName: string;
  allowDowngrade: boolean;
  /** The labels whose members it installs on (absent: chosen panels). */
  labelIds?: number[];
}

/**
 * App installs as a rollout kind: the command is `APK` with the version's file (signed URL per
 * panel at publish) and what the server read from the APK. A panel whose installed app of the
 * package has another signer is skipped before anything is sent, as Renew refuses it (Android
 * would refuse the update); the panel itself refuses an older versionCode (protocol 6.4).
 */
export class ApkRolloutKind implements RolloutKind {
  readonly kind = 'apk';
  readonly order = 'APK' as const;
  readonly cancelOrder = 'APK_CANCEL' as const;
  readonly ttlMs = OTA_TTL_MS;

  constructor(private readonly apks: ApkRepository) {}

  async commandValue(task: TaskRecord) {
    const payload = JSON.parse(task.payload) as ApkPayload;
    const v = await this.apks.findForDispatch(payload.versionId);
    if (!v) throw new Error(`APK version ${payload.versionId} of task ${task.id} is gone`);
    return storedApk(
      { path: v.stored_path, size: Number(v.file_size), sha256: v.sha256 },
      {
        packageName: v.package_name,
        versionCode: Number(v.version_code),
        versionName: v.version_name,
        label: v.label,
        signerSha256: v.signer_sha256,
      },
      payload.allowDowngrade,
    );
  }

  async admit(task: TaskRecord, candidates: Candidate[]): Promise<Map<number, Decision>> {
    const payload = JSON.parse(task.payload) as ApkPayload;
    const v = await this.apks.findForDispatch(payload.versionId);
    const installed = v
      ? await this.apks.installedAppsForPanels(
          v.package_name,
          candidates.map((c) => c.deviceId),
        )
      : [];
    const differs = new Set(
      installed.filter((app) => signedByAnother(app, v!.signer_sha256)).map((app) => app.device_id),
    );
    return new Map(
      candidates.map((c): [number, Decision] => [
        c.targetId,
        differs.has(c.deviceId) ? { skip: 'signerDiffers' } : { go: true },
      ]),
    );
  }
}

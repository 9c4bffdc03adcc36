import type { apk } from '@panelfleet/contract';
import type { z } from 'zod';
import type { ApkFileSubRecord, ApkVersionRecord, CardRow } from './repository.js';

type Card = z.infer<typeof apk.apkCard>;
type Version = z.infer<typeof apk.apkVersion>;
type Sub = z.infer<typeof apk.apkFileSub>;

/** The repository's rows as the console reads them: cards, versions, auxiliary apps. */
const iconUrl = (kind: 'version' | 'sub', id: number, iconPath: string) =>
  iconPath ? `/apkUpgrade/icon?kind=${kind}&id=${id}` : '';

export function toCard(r: CardRow): Card {
  return {
    apkMarkId: r.id,
    iconName: iconUrl('version', r.latest_id, r.icon_path),
    label: r.label,
    mark: r.mark,
    remark: r.remark,
    packageName: r.package_name,
    apkVersionDate: r.version_date,
    versionName: r.version_name,
    versionCode: r.version_code,
    fileSize: r.file_size,
    signerSha256: r.signer_sha256,
    versionCount: r.version_count,
  };
}

export function toSub(s: ApkFileSubRecord): Sub {
  return {
    apkFileSubId: s.id,
    apkVersionId: s.version_id,
    packageName: s.package_name,
    label: s.label,
    iconName: iconUrl('sub', s.id, s.icon_path),
    fileName: s.file_name,
    versionName: s.version_name,
    fileSize: Number(s.file_size),
  };
}

export function toVersion(v: ApkVersionRecord, latest: boolean, subs: Sub[]): Version {
  return {
    apkVersionId: v.id,
    apkMarkId: v.mark_id,
    versionName: v.version_name,
    versionCode: Number(v.version_code),
    logo: latest ? 1 : 0,
    fileName: v.file_name,
    fileSize: Number(v.file_size),
    sha256: v.sha256,
    minSdk: v.min_sdk,
    label: v.label,
    iconName: iconUrl('version', v.id, v.icon_path),
    creationDate: Number(v.created_at),
    userName: v.user_name,
    remark: v.remark,
    downgrade: v.downgrade ? '1' : '0',
    apkFileSubList: subs,
  };
}

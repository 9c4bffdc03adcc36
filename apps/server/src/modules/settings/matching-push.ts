import { device, oplog, settings as calls } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import { matchingBatch } from '../commands/matching-repository.js';
import type { CommandService } from '../commands/service.js';
import { reachOf, type MatchingDevices, type PanelReach } from '../devices/matching-repository.js';
import { entry, pushItemTerm } from './log-content.js';
import type { SettingsMatchingRepository } from './matching-repository.js';
import type { SettingsRepository } from './repository.js';
import { itemOf, type Caller, type PushItem } from './service.js';

const NAMES_SHOWN = 5;

export interface MatchingPushDeps {
  settings: Pick<SettingsRepository, 'find'>;
  pushes: SettingsMatchingRepository;
  matching: MatchingDevices;
  commands: Pick<CommandService, 'releaseBatch'>;
  clock: Clock;
}

/**
 * A saved setting pushed to every panel matching the device list's filter ("all N matching",
 * issue 28): the same rules as a push to chosen panels (the setting's series, a source setting's
 * system; the whole push refused, naming panels, when a matching panel does not fit), the
 * panels resolved by the database when the push is made, within the caller's organisation and
 * its token's labels; disabled panels are left out. Results as for any push (selectSettingPush).
 */
export class MatchingPushService {
  constructor(private readonly deps: MatchingPushDeps) {}

  async push(caller: Caller, type: '0' | '1', id: number, matching: device.PanelMatching) {
    const { user } = caller;
    const row = await this.deps.settings.find(user.orgId, id);
    if (!row || row.type !== type) throw new Refusal('settingTemplate.notFound', 'notFound');
    const item = itemOf(row);
    const reach = reachOf(user);
    await this.refuseMismatches(reach, matching, item);
    const now = this.deps.clock.now();
    const batch = matchingBatch({
      orgId: user.orgId,
      userId: user.id,
      order: 'SETTINGS',
      value: JSON.stringify(item.value),
      now,
      expiresAt: now + calls.SETTING_PUSH_TTL_MS,
    });
    const kind = type === '0' ? 'template' : 'source';
    const filter = matching.deviceName;
    const recorded = await this.deps.pushes.recordPush({
      push: { org_id: user.orgId, kind, created_by: user.id, created_at: now, expires_at: batch.expiresAt },
      batch,
      settingId: item.settingId,
      what: item.what,
      where: await this.deps.matching.condition(reach, matching),
      log: (count) =>
        entry(caller, `settingTemplate.push.${kind}`, {
          k: 'settingPushMatching',
          v: {
            settings: [pushItemTerm(item)],
            devices: filter ? oplog.term('matching', { filter }) : oplog.term('matchingAll'),
            count: oplog.counted('panel', count),
          },
        }),
    });
    if (!recorded) throw new Refusal('allMatching.noneMatching', 'invalid');
    this.deps.commands.releaseBatch(batch, (deviceIds) =>
      this.deps.pushes.markListening(user.orgId, recorded.pushId, deviceIds),
    );
    return recorded;
  }

  private async refuseMismatches(reach: PanelReach, matching: device.PanelMatching, item: PushItem) {
    const others = await this.deps.matching.otherSeries(reach, matching, item.series, NAMES_SHOWN + 1);
    if (others.length)
      throw new Refusal('allMatching.seriesMismatch', 'declined', {
        series: item.series,
        names: named(others),
      });
    if (!item.system) return;
    const otherSystems = await this.deps.matching.otherSystem(reach, matching, item.system, NAMES_SHOWN + 1);
    if (otherSystems.length)
      throw new Refusal('allMatching.systemMismatch', 'declined', {
        system: item.system,
        names: named(otherSystems),
      });
  }
}

/** Up to NAMES_SHOWN panels by name, "…" when there are more. */
const named = (rows: Array<{ name: string; machine_type: string }>) =>
  rows
    .slice(0, NAMES_SHOWN)
    .map((d) => (d.machine_type ? `${d.name} (${d.machine_type})` : d.name))
    .join(', ') + (rows.length > NAMES_SHOWN ? ' …' : '');

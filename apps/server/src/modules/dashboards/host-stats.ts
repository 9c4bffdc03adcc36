import fs from 'node:fs';
import os from 'node:os';
import type { dashboard } from '@panelfleet/contract';

/** The server host's own CPU, memory and disk, for the platform admin's dashboard only. */
export class HostStats {
  private last = cpuTimes();
  private lastLoad = 0;

  constructor(private readonly dataDir: string) {}

  read(): dashboard.SystemInfo {
    const now = cpuTimes();
    const busy = now.busy - this.last.busy;
    const total = now.total - this.last.total;
    // Measured since the previous read (at least a second apart), else the last figure.
    if (total > 0 && now.at - this.last.at >= 1000) {
      this.lastLoad = Math.round((busy / total) * 1000) / 10;
      this.last = now;
    }
    let disk: number | null = null;
    let diskTotal: number | null = null;
    try {
      const stats = fs.statfsSync(this.dataDir);
      diskTotal = Math.round((stats.blocks * stats.bsize) / 1024);
      disk = diskTotal - Math.round((stats.bavail * stats.bsize) / 1024);
    } catch {
      // A data directory that cannot be measured shows no disk gauge.
      disk = diskTotal = null;
    }
    return {
      source: 'host',
      cpu: this.lastLoad,
      disk,
      diskTotal,
      memory: Math.round((os.totalmem() - os.freemem()) / 1024),
      memoryTotal: Math.round(os.totalmem() / 1024),
      measuredAt: null,
    };
  }
}

function cpuTimes() {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total, at: Date.now() };
}

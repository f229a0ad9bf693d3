// Peak memory of one measurement: process.memoryUsage() sampled at every progress
// callback and phase boundary (decoding is synchronous, so a timer would never fire
// during it), cross-checked on Linux by the kernel's exact peak RSS (VmHWM), which
// is reset at the start so it covers the measurement only.

import { readFileSync, writeFileSync } from 'node:fs';

/** Peaks over a baseline, in bytes. */
export interface MemoryPeaks {
  readonly baselineRss: number;
  readonly baselineArrayBuffers: number;
  readonly peakRss: number;
  readonly peakArrayBuffers: number;
  readonly peakHeapUsed: number;
  readonly samples: number;
  readonly rssSource: 'VmHWM' | 'sampled'; // where peakRss comes from
}

/** Collects peaks from `start()` on; call `sample()` as often as the code allows. */
export class MemoryTracker {
  private baseline = process.memoryUsage();
  private peakRss = 0;
  private peakArrayBuffers = 0;
  private peakHeapUsed = 0;
  private samples = 0;
  private hwmReset = false;

  /** Collects garbage (when exposed), resets the kernel's peak and takes the baseline. */
  start(): void {
    globalThis.gc?.();
    this.hwmReset = resetPeakRss();
    this.baseline = process.memoryUsage();
    this.peakRss = this.baseline.rss;
    this.peakArrayBuffers = this.baseline.arrayBuffers;
    this.peakHeapUsed = this.baseline.heapUsed;
    this.samples = 0;
  }

  /** Takes one sample. Cheap enough to call from a progress callback. */
  sample(): void {
    const usage = process.memoryUsage();
    this.samples += 1;
    if (usage.rss > this.peakRss) this.peakRss = usage.rss;
    if (usage.arrayBuffers > this.peakArrayBuffers) this.peakArrayBuffers = usage.arrayBuffers;
    if (usage.heapUsed > this.peakHeapUsed) this.peakHeapUsed = usage.heapUsed;
  }

  /** The peaks so far. */
  peaks(): MemoryPeaks {
    this.sample();
    const hwm = this.hwmReset ? kernelPeakRss() : undefined;
    const useHwm = hwm !== undefined && hwm >= this.peakRss;
    return {
      baselineRss: this.baseline.rss,
      baselineArrayBuffers: this.baseline.arrayBuffers,
      peakRss: useHwm ? hwm : this.peakRss,
      peakArrayBuffers: this.peakArrayBuffers,
      peakHeapUsed: this.peakHeapUsed,
      samples: this.samples,
      rssSource: useHwm ? 'VmHWM' : 'sampled',
    };
  }
}

/** Resets the kernel's peak-RSS counter of this process (Linux); false when unavailable. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return kernelPeakRss() !== undefined;
  } catch {
    return false;
  }
}

function kernelPeakRss(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

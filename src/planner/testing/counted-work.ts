// Test utility: work counted, not timed. V8's block coverage counts every
// function call and every executed block of the project's code (src/) while
// a function runs, so a scaling test can compare the work of two input sizes.

import { Session } from 'node:inspector/promises';

/** A coverage session; `start` before counting, `stop` after. */
export class WorkCounter {
  private readonly session = new Session();

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  async stop(): Promise<void> {
    await this.session.post('Profiler.stopPreciseCoverage');
    this.session.disconnect();
  }

  /** Blocks and calls of the project's code (src/) executed by `run`. */
  async count(run: () => void): Promise<number> {
    await this.session.post('Profiler.takePreciseCoverage'); // resets the counters
    run();
    const { result } = await this.session.post('Profiler.takePreciseCoverage');
    let work = 0;
    for (const script of result) {
      if (!script.url.includes('/src/') || script.url.includes('/node_modules/')) continue;
      for (const fn of script.functions) for (const range of fn.ranges) work += range.count;
    }
    return work;
  }
}

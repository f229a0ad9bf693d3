// `plan` of Arm Vela's person detector: the ethos-u operator's scratch and
// scratch_fast tensors are read by it, written by no op and given by no
// caller; TensorFlow Lite Micro allocates them in its arena. The peak's live
// list named them "graph input", which they are not. Skips with a notice when
// ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const VELA = join(__dirname, '../../shared/models/tflite/tflm_person_detect_vela.tflite');
const have = existsSync(VELA);
if (!have) console.log(`cli plan unfed: ${VELA} is absent; skipping`);

const SCRATCH = ['_split_1_scratch', '_split_1_scratch_fast'];
const REASON = 'scratch tensor of ethos-u ethos-u_0: no op writes it and the caller gives none; TensorFlow Lite Micro allocates it in the arena';

describe.skipIf(!have)("the Vela ethos-u operator's scratch tensors at the peak", () => {
  it.each(['tflm', 'mcu', 'cpu'])('on %s: the text names them as the scratch of ethos-u_0, not as graph inputs', (target) => {
    const { code, out } = run(['plan', VELA, '--target', target]);
    expect(code).toBe(0);
    const peak = out.slice(out.indexOf('  peak step'));
    for (const name of SCRATCH) {
      const lines = peak.split('\n');
      const at = lines.findIndex((l) => l.endsWith(`  activation  ${name}`));
      expect(lines[at + 1]).toBe(`${' '.repeat(17)}start of the run -> ethos-u ethos-u_0, steps 0-1 (1): ${REASON}`);
    }
    // the model's one real input keeps its words
    expect(peak).toContain('graph input -> ethos-u ethos-u_0, steps 0-1 (1): graph input, kept for the whole run');
  });

  it('plan --json gives them the cause unfed, and no producer', () => {
    const plan = planJson([VELA, '--target', 'mcu']);
    const records = plan.explanation.peakLive.filter((r: { name: string }) => SCRATCH.includes(r.name));
    expect(records).toHaveLength(2);
    for (const r of records) {
      expect(r.causes).toEqual(['unfed']);
      expect(r.reason).toBe(REASON);
      expect(r.producer).toBeUndefined();
    }
  });
});

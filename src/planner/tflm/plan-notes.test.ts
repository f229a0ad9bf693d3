// The note about a file's own offline plan, on person_detect.tflite: a file
// that carries heapscope's plan is not asked to have it written in again, a
// file that carries a worse plan is, in words for the page and the CLI both.
// Skips with a notice when ../shared/models/tflite is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { withOfflinePlan } from '../../model/tflite/write-offline-plan';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import { TFLM_FILE_PLAN, TFLM_FILE_PLAN_KEPT } from './plan-notes';

const DIR = join(__dirname, '../../../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`plan-notes: ${DIR} is absent; skipping the real-model tests`);

const planOf = (bytes: Uint8Array): ModelPlan => planModel(inferShapes(decodeModel(bytes)), presetTarget('tflm'));
const fileNotes = (plan: ModelPlan) => plan.diagnostics.filter((d) => d.code === TFLM_FILE_PLAN || d.code === TFLM_FILE_PLAN_KEPT);

describe.skipIf(!have)("the note about the file's own offline plan (person_detect.tflite)", () => {
  const bytes = have ? new Uint8Array(readFileSync(join(DIR, 'tflm_person_detect.tflite'))) : new Uint8Array();

  it('says nothing of a file without one', () => {
    expect(fileNotes(planOf(bytes))).toEqual([]);
  });

  it("says a file carrying heapscope's plan is the plan shown, and does not ask to write it in", () => {
    const first = planOf(bytes);
    const reopened = planOf(withOfflinePlan(bytes, first.runtimePlan!.planned.offsets));
    expect(reopened.runtimePlan!.filePlan).toMatchObject({ valid: true, sameAsPlanned: true, head: first.runtimePlan!.planned.head });
    const notes = fileNotes(reopened);
    expect(notes).toEqual([{ code: TFLM_FILE_PLAN_KEPT, message: expect.stringContaining('it is the plan shown here') }]);
    expect(notes[0]!.message).not.toMatch(/until|--save-tflite/);
  });

  it('asks a file carrying a larger plan to have heapscope’s written in, naming the page’s control and the CLI’s', () => {
    const first = planOf(bytes);
    // every tensor at an offset of its own: valid, but far larger than heapscope's plan
    let next = 0;
    const spread = first.runtimePlan!.planned.offsets.map((o) => (o < 0 ? -1 : (next += 64 * 1024) - 64 * 1024));
    const worse = planOf(withOfflinePlan(bytes, spread));
    const runtime = worse.runtimePlan!;
    expect(runtime.filePlan!.valid).toBe(true);
    expect(runtime.filePlan!.sameAsPlanned).toBe(false);
    expect(runtime.filePlan!.head).toBeGreaterThan(runtime.planned.head);
    const notes = fileNotes(worse);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.code).toBe(TFLM_FILE_PLAN);
    expect(notes[0]!.message).toContain('Export → Planned .tflite');
    expect(notes[0]!.message).toContain('--save-tflite');
  });
});

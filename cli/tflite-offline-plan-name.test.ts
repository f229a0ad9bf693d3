// The command line on a .tflite whose offline plan entry has been renamed:
// TensorFlow Lite Micro reads only an entry named exactly
// `OfflineMemoryAllocation`, so heapscope must not take `…_old` for the
// file's plan. Skips with a notice when ../shared is absent.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withOfflinePlan } from '../src/model/tflite/write-offline-plan';
import { planJson, run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`cli tflite offline plan name: ${DIR} is absent; skipping`);
const SELFIE = join(DIR, 'mediapipe_selfie_segmentation.tflite');

/** The file with metadata entry `index` renamed: the new name is appended and the entry's name field points at it. */
function renameMetadata(file: Uint8Array, index: number, name: string): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const u32 = (o: number) => view.getUint32(o, true);
  const field = (table: number, i: number): number => {
    const vtable = table - view.getInt32(table, true);
    if (4 + 2 * i >= view.getUint16(vtable, true)) return 0;
    const at = view.getUint16(vtable + 4 + 2 * i, true);
    return at === 0 ? 0 : table + at;
  };
  const root = u32(0);
  const metadata = field(root, 6); // Model.metadata
  const vector = metadata + u32(metadata);
  const slot = vector + 4 + 4 * index;
  const entry = slot + u32(slot);
  const nameField = field(entry, 0); // Metadata.name
  const text = new TextEncoder().encode(name);
  const start = Math.ceil(file.byteLength / 4) * 4;
  const out = new Uint8Array(start + 4 + Math.ceil((text.length + 1) / 4) * 4);
  out.set(file);
  const outView = new DataView(out.buffer);
  outView.setUint32(start, text.length, true);
  out.set(text, start + 4);
  outView.setUint32(nameField, start - nameField, true);
  return out;
}

describe.skipIf(!have)('a .tflite offline plan entry named other than OfflineMemoryAllocation', () => {
  it('is not the file plan TFLM uses: the arena is TFLM greedy one, and a note says the entry is ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-offline-name-'));
    const planned = join(dir, 'selfie.planned.tflite');
    // TFLM refuses the segmenter (float16 DEQUANTIZE), so --save-tflite writes nothing; the writer itself is used
    const original = planJson([SELFIE, '--target', 'tflm']).runtimePlan;
    writeFileSync(planned, withOfflinePlan(new Uint8Array(readFileSync(SELFIE)), original.planned.offsets));
    const renamed = join(dir, 'selfie.renamed.tflite');
    writeFileSync(renamed, renameMetadata(readFileSync(planned), 0, 'OfflineMemoryAllocation_old'));

    const asPlanned = planJson([planned, '--target', 'tflm']).runtimePlan;
    expect(asPlanned.filePlan).toBeDefined(); // the written entry is the file's plan
    expect(asPlanned.arena).toBeLessThan(original.arena);

    const plan = planJson([renamed, '--target', 'tflm']);
    expect(plan.runtimePlan.filePlan).toBeUndefined();
    expect(plan.runtimePlan.head).toBe(original.greedyHead);
    expect(plan.runtimePlan.arena).toBe(original.arena);
    expect(plan.diagnostics).toContainEqual({
      code: 'tflite-offline-plan-ignored',
      message: "the file carries a metadata entry named 'OfflineMemoryAllocation_old', named like an offline plan, which TensorFlow Lite Micro ignores: it reads only an entry named exactly OfflineMemoryAllocation, so this entry is not the file's plan",
    });

    const text = run(['plan', renamed, '--target', 'tflm']).out;
    expect(text).not.toMatch(/file's plan +head/);
    expect(text).toMatch(/TFLM's plan +head 4.00 MiB/);
    expect(text).toContain('[tflite-offline-plan-ignored]');
  }, 120_000);
});

// `diff` on TensorFlow Lite Micro writes an arena to declare that rests on the
// tail's estimated parts as the page, Compare and `plan` write it: "(estimate)",
// on the arena lines, in the budget's line and in the plan-written aside, as
// `diff --json` says with each side's `tailEstimated`. Skips when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const HELLO = join(DIR, 'tflm_hello_world_int8.tflite');
const PERSON = join(DIR, 'tflm_person_detect.tflite');

describe.skipIf(!existsSync(HELLO) || !existsSync(PERSON))('diff on tflm, an arena resting on the estimated tail', () => {
  it('says "(estimate)" beside each arena to declare whose tail is estimated, as --json says', () => {
    const json = JSON.parse(run(['diff', PERSON, HELLO, '--target', 'tflm', '--json']).out);
    expect([json.runtime.a.tailEstimated, json.runtime.b.tailEstimated]).toEqual([true, true]);
    expect([json.runtime.a.lowerEstimate, json.runtime.b.lowerEstimate]).toEqual([false, false]);
    const { code, out } = run(['diff', PERSON, HELLO, '--target', 'tflm']);
    expect(code).toBe(0);
    expect(out).toContain('\narena to declare 80.4 KiB (estimate) -> 1.08 KiB (estimate): −79.3 KiB');
  });

  it("says the budget's verdict rests on b's estimated arena", () => {
    const { code, out } = run(['diff', PERSON, HELLO, '--target', 'tflm', '--budget', '100000']);
    expect(code).toBe(0);
    expect(out).toMatch(/\nbudget 97\.7 KiB \(100,000 bytes, judged on its arena to declare for the file as it is, an estimate\): b within, 96\.6 KiB to spare\n$/);
  });
});

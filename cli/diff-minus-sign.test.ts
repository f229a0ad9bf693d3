// diff's text (and plan's suggestions) write a negative change with one minus sign, U+2212 as the rest
// of the CLI and the page write it (shared/format MINUS), never a hyphen
// beside it; --json keeps the numbers numeric.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINUS } from '../src/shared/format';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const TFLITE = join(__dirname, '../../shared/models/tflite');
const PERSON = join(TFLITE, 'tflm_person_detect.tflite');
const HELLO = join(TFLITE, 'tflm_hello_world_int8.tflite');

/** A hyphen used as a minus: before a digit, not inside a word or a path. */
const HYPHEN_MINUS = /(^|[\s(:,])-\d/m;

describe('diff text, a smaller b', () => {
  it('writes every negative change with U+2212, the byte count too', () => {
    const { code, out } = run(['diff', SAMPLE, SAMPLE, '--dim', 'batch=4', '--b-dim', 'batch=1']);
    expect(code).toBe(0);
    const peak = out.split('\n').find((line) => line.startsWith('peak '))!;
    expect(peak).toMatch(new RegExp(`: ${MINUS}[\\d.]+ MiB \\(${MINUS}75\\.0 %\\), ${MINUS}9,216,000 bytes$`));
    expect(out).not.toMatch(HYPHEN_MINUS);
    const json = JSON.parse(run(['diff', SAMPLE, SAMPLE, '--dim', 'batch=4', '--b-dim', 'batch=1', '--json']).out);
    expect(json.delta).toBe(-9216000);
  });

  it.skipIf(!existsSync(PERSON))("writes tflm's arena change with U+2212 too", () => {
    const { out } = run(['diff', PERSON, HELLO, '--target', 'tflm']);
    expect(out).toMatch(new RegExp(`^arena to declare .*\\), ${MINUS}81,248 bytes \\(`, 'm'));
    expect(out).not.toMatch(HYPHEN_MINUS);
  });
});

describe('plan text, a suggestion that saves bytes', () => {
  it('writes its saving with U+2212, as diff and the page write a fall', () => {
    const { out } = run(['plan', SAMPLE, '--target', 'mcu']);
    const saving = out.split('\n').find((line) => line.includes('[--scratch-placement with-activations]'))!;
    expect(saving).toMatch(new RegExp(`^ +${MINUS}100 KiB  plan scratch with the activations`));
    expect(out).not.toMatch(HYPHEN_MINUS);
  });
});

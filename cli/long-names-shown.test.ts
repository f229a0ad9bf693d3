// Names from a file in what the CLI prints: a name of a megabyte is cut in its
// middle in text (its start and end kept) and in error sentences, whose reason
// stays; --json keeps a model's names whole; a byte that is not UTF-8 shows as
// an escape instead of vanishing.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { MESSAGE_CHARS, SHOWN_CHARS } from '../src/shared/short-name';
import { run } from './testing/run-cli';

function file(name: string, data: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-long-names-')), name);
  writeFileSync(path, data);
  return path;
}

const LONG = `head${'L'.repeat(1_000_000)}tail`;

/** x -> Relu -> (a tensor named `name`) -> Relu -> y. */
function modelNamed(name: string): Uint8Array {
  const g = new GraphBuilder('names');
  const x = g.input('x', 'float32', [1, 1000]);
  const [a] = g.nodeOutputs('Relu', [x], [name], {}, { name: 'r1' });
  const [y] = g.nodeOutputs('Relu', [a!], ['y'], {}, { name: 'r2' });
  g.output(y!);
  return g.toBytes({ opset: 17 });
}

/** The longest line of `text`. */
const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));

describe('a long name in an error', () => {
  it('is cut inside the sentence, which keeps its reason, in text and in JSON alike', () => {
    const csv = file('longid.csv', `id,lower,upper,size\n${'x'.repeat(1_000_000)},0,1,4\n${'x'.repeat(1_000_000)},0,1,4\n`);
    const text = run(['solve', csv]);
    expect(text.code).toBe(2);
    expect(text.err).toMatch(/line 3: id "x+…x+" already used on line 2\n$/);
    expect(text.err.length).toBeLessThan(MESSAGE_CHARS);
    const json = run(['solve', csv, '--json']);
    const message = (JSON.parse(json.out) as { error: { message: string } }).error.message;
    expect(message).toMatch(/line 3: id "x+…x+" already used on line 2$/);
    expect(message.length).toBeLessThan(MESSAGE_CHARS);
  });

  it('keeps the reason of a sentence quoting a long name with spaces in it', () => {
    const spaced = 'x '.repeat(500_000);
    const csv = file('spaced.csv', `id,lower,upper,size\n"${spaced}",0,1,4\n"${spaced}",0,1,4\n`);
    const { err } = run(['solve', csv]);
    expect(err).toMatch(/already used on line 2\n$/);
    expect(err.length).toBeLessThan(MESSAGE_CHARS + 20);
  });
});

describe('a long tensor name in plan and inspect', () => {
  const model = file('long.onnx', modelNamed(LONG));

  it('is cut in the middle in text, its start and end kept', () => {
    for (const command of ['plan', 'inspect']) {
      const { code, out } = run([command, model]);
      expect(code, command).toBe(0);
      expect(out, command).toMatch(/headL+…L+tail/);
      expect(widest(out), command).toBeLessThan(SHOWN_CHARS + 100);
    }
  });

  it('is whole in --json', () => {
    const json = JSON.parse(run(['inspect', model, '--json']).out) as { values: { name: string }[] };
    expect(json.values.map((v) => v.name)).toContain(LONG);
  });
});

describe('a name with a byte that is not UTF-8', () => {
  it('shows the byte as an escaped U+FFFD in text, and differs from the name without it', () => {
    const bytes = modelNamed('a-QQ31m');
    for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 0x51 && bytes[i + 1] === 0x51) bytes[i + 1] = 0x9b;
    const model = file('invalid.onnx', bytes);
    const { code, out } = run(['inspect', model]);
    expect(code).toBe(0);
    expect(out).toContain('a-Q\\ufffd31m');
    const json = JSON.parse(run(['inspect', model, '--json']).out) as { values: { name: string }[] };
    expect(json.values.map((v) => v.name)).toContain('a-Q\uFFFD31m');
  });
});

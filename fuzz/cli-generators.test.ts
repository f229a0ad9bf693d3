// The command-line campaigns' generators: each reaches the variants it
// promises (formulas by the grammar and hostile ones, plan edits that a
// reader must refuse, every CSV column and line-end form, odd commands and
// unknown options), and the same seed gives the same input.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScratchFormula } from '../src/planner/scratch/formula';
import { InputError } from '../src/shared/errors';
import { randomArgs } from './cli-args';
import { makeWorkspace, type Workspace } from './cli-fixtures';
import { randomCsv, wideCsv } from './csv-variants';
import { mutatePlan } from './mutate-plans';
import { hostileFormula, randomFormula, randomTarget } from './mutate-targets';
import { planProblems } from './plan-validity';
import { Rng } from './random';

/** Whether the formula parses; any throw but a typed input error fails the test. */
function parses(formula: string): boolean {
  try {
    parseScratchFormula(formula);
    return true;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return false;
  }
}

let w: Workspace;
beforeAll(() => {
  w = makeWorkspace();
});

describe('target profiles', () => {
  it('random formulas mostly parse; hostile ones are refused as input, never by a crash', () => {
    const random = Array.from({ length: 300 }, (_, i) => randomFormula(new Rng(i)));
    expect(random.filter(parses).length).toBeGreaterThan(200);
    const hostile = Array.from({ length: 100 }, (_, i) => hostileFormula(new Rng(i)));
    expect(hostile.filter(parses).length).toBeLessThan(60);
  });

  it('makes every kind of profile, the same seed the same text', () => {
    const kinds = new Set(Array.from({ length: 200 }, (_, i) => randomTarget(new Rng(i)).kind));
    expect([...kinds].sort()).toEqual(['fields', 'preset', 'scratch', 'text']);
    expect(randomTarget(new Rng(3)).text).toBe(randomTarget(new Rng(3)).text);
  });
});

describe('saved plans', () => {
  it('edits of meaning make plans the validator refuses; kept edits leave them valid', () => {
    const base = readFileSync(w.plans[1]!, 'utf8');
    expect(planProblems(JSON.parse(base).plan)).toEqual([]);
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const c = mutatePlan(new Rng(i), base);
      const plan = (() => {
        try {
          return JSON.parse(c.text).plan;
        } catch {
          return undefined;
        }
      })();
      if (c.kind === 'kept') expect(planProblems(plan)).toEqual([]);
      if (c.kind === 'meaning' && /overlapped|peak lowered/.test(c.label) && planProblems(plan).length > 0) refused++;
    }
    expect(refused).toBeGreaterThan(10);
  });
});

describe('CSV problems', () => {
  it('writes every column name, the optional columns, every line end and a byte order mark', () => {
    const texts = Array.from({ length: 300 }, (_, i) => randomCsv(new Rng(i)).text);
    const headers = texts.map((t) => t.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)[0]!.toLowerCase());
    for (const name of ['id', 'buffer', 'lower', 'start', 'upper', 'end', 'size', 'alignment', 'offset']) {
      expect(headers.some((h) => h.split(',').some((c) => c.trim() === name))).toBe(true);
    }
    expect(texts.some((t) => t.includes('\r\n'))).toBe(true);
    expect(texts.some((t) => /\r[^\n]/.test(t))).toBe(true);
    expect(texts.some((t) => t.startsWith('\uFEFF'))).toBe(true);
    expect(texts.some((t) => t.includes('"line\nbreak"'))).toBe(true);
    expect(randomCsv(new Rng(9)).text).toBe(randomCsv(new Rng(9)).text);
  });

  it('a wide problem has more than 20,000 buffers live at once', () => {
    const rows = wideCsv(new Rng(1)).text.trim().split('\n').slice(1).map((r) => r.split(','));
    expect(rows.filter((r) => Number(r[1]) <= 2 && Number(r[2]) >= 3).length).toBeGreaterThan(20_000);
  });
});

describe('argument vectors', () => {
  it('has odd commands, unknown options, devices and missing files, and only strings', () => {
    const cases = Array.from({ length: 500 }, (_, i) => randomArgs(new Rng(i), w));
    const words = new Set(cases.flatMap((c) => c.argv));
    for (const word of ['__proto__', 'constructor', '--nope', '/dev/zero', w.missing, w.subdir]) expect(words.has(word)).toBe(true);
    expect(cases.every((c) => c.argv.every((a) => typeof a === 'string'))).toBe(true);
    expect(randomArgs(new Rng(4), w).argv).toEqual(randomArgs(new Rng(4), w).argv);
  });
});

import { describe, expect, it } from 'vitest';
import type { IrDiagnostic } from '../model/ir';
import { toldByLinkNotice } from './link-told';

const nosuch: IrDiagnostic = { code: 'unused-binding', message: "--shape nosuch=1x2 is ignored: no tensor is named 'nosuch'", binding: { kind: 'shape', name: 'nosuch' } };
const weight: IrDiagnostic = { code: 'unused-binding', message: "--shape w=4 is ignored: 'w' is an initializer, stored in the file", binding: { kind: 'shape', name: 'w' } };
const concat: IrDiagnostic = { code: 'concat-copy', message: "Concat 'c' copies" };

describe('diagnostics the link notice tells', () => {
  it("leave out a link's shape for a tensor the model lacks, in the model's list and the plan's copy, and keep the rest", () => {
    const told = toldByLinkNotice([nosuch, weight, concat], [{ kind: 'shape', name: 'nosuch' }]);
    expect([nosuch, weight, concat].filter((d) => !told(d))).toEqual([weight, concat]);
    // the plan keeps a diagnostic's code and sentence only
    expect(told({ code: nosuch.code, message: nosuch.message })).toBe(true);
  });

  it('leave out nothing when the link named no binding, or an input value of the same name as a shape', () => {
    expect([nosuch, weight].filter(toldByLinkNotice([nosuch, weight], []))).toEqual([]);
    expect([nosuch].filter(toldByLinkNotice([nosuch], [{ kind: 'input', name: 'nosuch' }]))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { opensGraphFind, type FindKeyPress } from './find-keys';

const press = (over: Partial<FindKeyPress>): FindKeyPress => ({ key: '/', ctrl: false, meta: false, alt: false, typing: false, focus: 'elsewhere', pointerOverGraph: false, ...over });
const ctrlF: Partial<FindKeyPress> = { key: 'f', ctrl: true };

describe('opensGraphFind', () => {
  it('opens the graph Find for "/" and Ctrl+F with focus on a graph node, the pointer anywhere', () => {
    expect(opensGraphFind(press({ focus: 'graph' }))).toBe(true);
    expect(opensGraphFind(press({ ...ctrlF, focus: 'graph' }))).toBe(true);
    expect(opensGraphFind(press({ key: 'F', meta: true, focus: 'graph' }))).toBe(true);
  });

  it('leaves the keys to another pane with a find of its own while focus is in it, the pointer over the graph or not', () => {
    expect(opensGraphFind(press({ focus: 'other-find', pointerOverGraph: true }))).toBe(false);
    expect(opensGraphFind(press({ ...ctrlF, focus: 'other-find', pointerOverGraph: true }))).toBe(false);
  });

  it('lets the pointer decide with focus in no pane that has a find', () => {
    expect(opensGraphFind(press({ pointerOverGraph: true }))).toBe(true);
    expect(opensGraphFind(press({ ...ctrlF, pointerOverGraph: true }))).toBe(true);
    // The browser's find and the tensor filter's "/" keep the key otherwise.
    expect(opensGraphFind(press({}))).toBe(false);
    expect(opensGraphFind(press(ctrlF))).toBe(false);
  });

  it('never takes "/" typed in a field, other keys, or Ctrl+Alt+F', () => {
    expect(opensGraphFind(press({ typing: true, focus: 'graph', pointerOverGraph: true }))).toBe(false);
    expect(opensGraphFind(press({ key: 'f', focus: 'graph' }))).toBe(false);
    expect(opensGraphFind(press({ key: '/', ctrl: true, focus: 'graph' }))).toBe(false);
    expect(opensGraphFind(press({ ...ctrlF, alt: true, focus: 'graph' }))).toBe(false);
    // Ctrl+F in a field still opens it where the focus or the pointer says so.
    expect(opensGraphFind(press({ ...ctrlF, typing: true, focus: 'graph' }))).toBe(true);
  });
});

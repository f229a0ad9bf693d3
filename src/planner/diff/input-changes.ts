// What the user gave each plan besides dims: shape overrides (`--shape`, the
// page's `shape.` and Growth's image size and batch) and graph-input values
// (`--input`), read from the plan files as text for labels and causes. A plan
// file saved before it recorded them tells nothing, and nothing is guessed.
// Depends only on the plan file type.

import type { PlanFile } from '../assembly/plan-file';
import { ownValue } from '../../shared/own';

/** A shape override or input value that differs between two plans, as text. */
export interface InputChange {
  readonly name: string; // the tensor (a graph input, or any tensor a shape was given for)
  readonly what: 'shape' | 'value';
  readonly input: boolean; // a graph input of the model
  readonly a: string; // '1×3×256×256', '[3]', 'as declared', 'not given'
  readonly b: string;
}

/** Values shown of an input value before "…". */
const SHOWN_VALUES = 8;

/** "1×3×224×224"; a scalar reads "scalar". */
export function shapeText(shape: readonly number[]): string {
  return shape.length === 0 ? 'scalar' : shape.join('×');
}

/** "[1, 2, 3]", cut after SHOWN_VALUES values. */
export function valuesText(values: readonly number[]): string {
  const shown = values.slice(0, SHOWN_VALUES).join(', ');
  return `[${shown}${values.length > SHOWN_VALUES ? `, … ${values.length} values` : ''}]`;
}

/** The shape overrides a plan file records, or undefined when it does not record them (an older file). */
export function shapeOverrides(file: PlanFile): Readonly<Record<string, readonly number[]>> | undefined {
  return recordOf(file.plan.assumptions?.shapes);
}

/** The graph-input values a plan file records, or undefined when it does not record them. */
export function inputValues(file: PlanFile): Readonly<Record<string, readonly number[]>> | undefined {
  return recordOf(file.plan.assumptions?.inputValues);
}

function recordOf(value: unknown): Readonly<Record<string, readonly number[]>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, readonly number[]>) : undefined;
}

/**
 * The shape tensor `name` was planned with in `file`, as text: the override
 * when given, else the graph input's recorded shape, else "as declared"
 * ("not recorded" when the file records no overrides at all).
 */
export function shapeOn(file: PlanFile, name: string): string {
  const shape = plannedShape(file, name);
  return typeof shape === 'string' ? shape : shapeText(shape);
}

/** "data_0=1×3×224×224", "data_0 as declared", "data_0 shape not recorded": a side's label for the shape of `name`. */
export function shapeLabel(file: PlanFile, name: string): string {
  const shape = plannedShape(file, name);
  if (shape === 'not recorded') return `${name} shape not recorded`;
  return typeof shape === 'string' ? `${name} ${shape}` : `${name}=${shapeText(shape)}`;
}

function plannedShape(file: PlanFile, name: string): readonly number[] | 'as declared' | 'not recorded' {
  const overrides = shapeOverrides(file);
  if (overrides === undefined) return 'not recorded';
  return ownValue(overrides, name) ?? ownValue(file.settings.inputShapes ?? {}, name) ?? 'as declared';
}

/** "ids=[3]", "ids not given", "ids value not recorded": a side's label for the value of input `name`. */
export function valueLabel(file: PlanFile, name: string): string {
  const given = ownValue(inputValues(file), name);
  if (given !== undefined) return `${name}=${valuesText(given)}`;
  return inputValues(file) === undefined ? `${name} value not recorded` : `${name} not given`;
}

/** The value input `name` was given in `file`, as text ("not given"; "not recorded" for an older file). */
export function valueOn(file: PlanFile, name: string): string {
  const values = inputValues(file);
  if (values === undefined) return 'not recorded';
  const given = ownValue(values, name);
  return given === undefined ? 'not given' : valuesText(given);
}

/**
 * The shape overrides and input values that differ between A and B, shapes
 * first, by name. Empty when either file does not record them: a change is
 * never claimed from a missing record.
 */
export function inputChanges(a: PlanFile, b: PlanFile): InputChange[] {
  const out: InputChange[] = [];
  const [shapesA, shapesB] = [shapeOverrides(a), shapeOverrides(b)];
  const isInput = (name: string) => ownValue(a.settings.inputShapes ?? {}, name) !== undefined || ownValue(b.settings.inputShapes ?? {}, name) !== undefined;
  if (shapesA !== undefined && shapesB !== undefined) {
    for (const name of namesOf(shapesA, shapesB)) {
      const [ta, tb] = [shapeOn(a, name), shapeOn(b, name)];
      if (ta !== tb) out.push({ name, what: 'shape', input: isInput(name), a: ta, b: tb });
    }
  }
  const [valuesA, valuesB] = [inputValues(a), inputValues(b)];
  if (valuesA !== undefined && valuesB !== undefined) {
    for (const name of namesOf(valuesA, valuesB)) {
      const [ta, tb] = [valueOn(a, name), valueOn(b, name)];
      if (ta !== tb) out.push({ name, what: 'value', input: true, a: ta, b: tb });
    }
  }
  return out;
}

function namesOf(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** "input data_0 shape changed (1×3×256×256 → 1×3×1024×1024)"; several joined by "; ". */
export function inputChangeText(changes: readonly InputChange[]): string {
  return changes.map((c) => `${c.input ? 'input' : 'tensor'} ${c.name} ${c.what} changed (${c.a} → ${c.b})`).join('; ');
}

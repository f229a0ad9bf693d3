// `plan --save FILE`, `--header FILE`, `--csv FILE` and `--save-tflite FILE`:
// write the plan of one model as a plan file, a C header, MiniMalloc solution
// CSVs (one per region), or the .tflite model with the plan as its offline plan.
// No output may land on the model it was read from.

import { realpathSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { withOfflinePlan } from '../src/model/tflite/write-offline-plan';
import type { InferredModel } from '../src/model/inferred';
import { planCHeader } from '../src/planner/export/c-header';
import { planFileCsv } from '../src/planner/export/plan-csv';
import type { ModelPlan } from '../src/planner/plan';
import { toPlanFile, writePlanFile } from '../src/planner/assembly/plan-file';
import type { TargetProfile } from '../src/planner/targets/target';
import { InputError } from '../src/shared/errors';
import type { ParsedArgs } from './args';
import { targetSettingName } from './targets';

/** The export options of `plan`. */
export const EXPORT_OPTIONS = ['--save', '--header', '--csv', '--save-tflite'] as const;

/** True when any export option is given. */
export function wantsExports(args: ParsedArgs): boolean {
  return EXPORT_OPTIONS.some((o) => args.options.has(o));
}

/** What the exports are written from. */
export interface ExportInput {
  readonly file: string;
  readonly model: InferredModel;
  readonly plan: ModelPlan;
  readonly target: TargetProfile;
  readonly strategy: string | undefined;
  readonly bytes: Uint8Array; // the model file as read
}

/** Writes every export the options ask for; returns the paths written. */
export function writeExports(args: ParsedArgs, input: ExportInput): string[] {
  const { file, model, plan, target } = input;
  for (const option of EXPORT_OPTIONS) {
    const path = args.options.get(option);
    if (path !== undefined && samePath(path, file)) throw new InputError('bad-argument', `${option} ${path} would overwrite the model it plans; give another file name`);
  }
  const planFile = toPlanFile(model, plan, {
    model: file,
    target: targetSettingName(args.options.get('--target')),
    targetProfile: target,
    dims: args.dims,
    ...(input.strategy !== undefined && { strategy: input.strategy }),
  });
  const written: string[] = [];
  const save = args.options.get('--save');
  if (save !== undefined) written.push(writeText(save, writePlanFile(planFile)));
  const header = args.options.get('--header');
  if (header !== undefined) written.push(writeText(header, planCHeader(planFile)));
  const csv = args.options.get('--csv');
  if (csv !== undefined) {
    const regions = plan.regions.filter((r) => plan.buffers.some((b) => b.region === r.name));
    for (const r of regions) written.push(writeText(regions.length === 1 ? csv : regionPath(csv, r.name), planFileCsv(planFile, r.name, true)));
  }
  const tflite = args.options.get('--save-tflite');
  if (tflite !== undefined) written.push(writeBytes(tflite, plannedTflite(input)));
  return written;
}

/** The model with heapscope's plan as its offline plan; only a .tflite model planned for TFLite Micro has one. */
function plannedTflite({ plan, bytes }: ExportInput): Uint8Array {
  if (plan.runtimePlan === undefined) {
    throw new InputError('bad-argument', '--save-tflite writes an offline plan for TensorFlow Lite Micro: it needs a .tflite model and --target tflm (or a target with planning.runtime "tflm")');
  }
  return withOfflinePlan(bytes, plan.runtimePlan.planned.offsets);
}

/** True when two paths name the same file (the second exists). */
export function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** `out.csv` -> `out.sram.csv`: one solution file per region. */
export function regionPath(path: string, region: string): string {
  const safe = region.replace(/[^A-Za-z0-9_-]+/g, '_');
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash + 1 ? `${path.slice(0, dot)}.${safe}${path.slice(dot)}` : `${path}.${safe}`;
}

function writeText(path: string, text: string): string {
  return writeBytes(path, text);
}

function writeBytes(path: string, data: string | Uint8Array): string {
  try {
    writeFileSync(path, data);
  } catch (error) {
    throw new InputError('io', `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return path;
}

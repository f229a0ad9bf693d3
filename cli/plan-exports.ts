// `plan --save FILE`, `--header FILE`, `--csv FILE` and `--save-tflite FILE`:
// write the plan of one model as a plan file, a C header, MiniMalloc solution
// CSVs (one per region; one table of all regions on a stream), or the .tflite model with the plan as its offline plan.
// No output may land on an input or on another output (outputs.ts).

import { withOfflinePlan } from '../src/model/tflite/write-offline-plan';
import type { InferredModel } from '../src/model/inferred';
import { planCHeader } from '../src/planner/export/c-header';
import { planFileCsv, planFileCsvRegions } from '../src/planner/export/plan-csv';
import type { ModelPlan } from '../src/planner/plan';
import { plannedTfliteRefusal } from '../src/planner/tflm/planned-tflite-refusal';
import { toPlanFile, writePlanFile } from '../src/planner/assembly/plan-file';
import type { TargetProfile } from '../src/planner/targets/target';
import { InputError } from '../src/shared/errors';
import type { ParsedArgs } from './args';
import { checkOutputs, isStreamPath, writeOutputFile, type CommandInput, type CommandOutput } from './outputs';
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

/** A file an export option writes; for --csv, the regions it holds (several only on a stream). */
interface ExportOutput extends CommandOutput {
  readonly regions?: readonly string[];
}

/**
 * Every file the export options will write for this plan: one per option, and
 * for --csv one per region with buffers when there are several, unless the
 * path is a stream (a pipe, a device, /dev/stdout): then one table of all
 * regions, and no file is made beside it.
 */
export function exportPaths(args: ParsedArgs, plan: ModelPlan): ExportOutput[] {
  const outputs: ExportOutput[] = [];
  for (const option of EXPORT_OPTIONS) {
    const path = args.options.get(option);
    if (path === undefined) continue;
    if (option !== '--csv') outputs.push({ option, path });
    else {
      const regions = csvRegions(plan);
      if (regions.length <= 1 || isStreamPath(path)) outputs.push({ option, path, regions });
      else for (const r of regions) outputs.push({ option, path: regionPath(path, r), given: path, region: r, regions: [r] });
    }
  }
  return outputs;
}

/** The regions --csv writes: those holding buffers. */
function csvRegions(plan: ModelPlan): string[] {
  return plan.regions.filter((r) => plan.buffers.some((b) => b.region === r.name)).map((r) => r.name);
}

/**
 * Writes every export the options ask for; returns the paths written. Every
 * path is checked against the inputs (`inputs`: the model and a target file)
 * and the other outputs before the first file is written.
 */
export function writeExports(args: ParsedArgs, input: ExportInput, inputs: readonly CommandInput[]): string[] {
  const { file, model, plan, target } = input;
  const outputs = exportPaths(args, plan);
  checkOutputs(inputs, outputs);
  const planFile = toPlanFile(model, plan, {
    model: file,
    target: targetSettingName(args.options.get('--target')),
    targetProfile: target,
    dims: args.dims,
    ...(input.strategy !== undefined && { strategy: input.strategy }),
  });
  const contents = outputs.map((o): string | Uint8Array => {
    if (o.option === '--save') return writePlanFile(planFile);
    // the guard is named by the header's own file; a stream's name (/dev/stdout) says nothing of the file it ends in
    if (o.option === '--header') return planCHeader(planFile, isStreamPath(o.path) ? undefined : o.path);
    if (o.option === '--csv') return o.regions !== undefined && o.regions.length > 1 ? planFileCsvRegions(planFile, o.regions, true) : planFileCsv(planFile, o.regions?.[0], true);
    return plannedTflite(input);
  });
  return outputs.map((o, i) => writeOutputFile(o.path, contents[i]!));
}

/**
 * The model with heapscope's plan as its offline plan; only a .tflite model
 * planned for TFLite Micro has one, and only one TFLite Micro accepts is written.
 */
function plannedTflite({ plan, bytes }: ExportInput): Uint8Array {
  if (plan.runtimePlan === undefined) {
    throw new InputError('bad-argument', '--save-tflite writes an offline plan for TensorFlow Lite Micro: it needs a .tflite model and --target tflm (or a target with planning.runtime "tflm")');
  }
  // a file TFLM cannot load (AllocateTensors() fails with any arena) is not written, --strict or not
  const refusal = plannedTfliteRefusal(plan.runtimePlan);
  if (refusal !== undefined) throw new InputError('bad-argument', `--save-tflite ${refusal}`);
  return withOfflinePlan(bytes, plan.runtimePlan.planned.offsets);
}

/** `out.csv` -> `out.sram.csv`: one solution file per region. */
export function regionPath(path: string, region: string): string {
  const safe = region.replace(/[^A-Za-z0-9_-]+/g, '_');
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash + 1 ? `${path.slice(0, dot)}.${safe}${path.slice(dot)}` : `${path}.${safe}`;
}

// `plan --save FILE`, `--header FILE` and `--csv FILE`: write the plan of one
// model as a plan file, a C header, or MiniMalloc solution CSVs (one per region).

import { writeFileSync } from 'node:fs';
import type { InferredModel } from '../src/model/inferred';
import { planCHeader } from '../src/planner/export/c-header';
import { planFileCsv } from '../src/planner/problem/minimalloc-csv';
import type { ModelPlan } from '../src/planner/plan';
import { toPlanFile, writePlanFile } from '../src/planner/assembly/plan-file';
import type { TargetProfile } from '../src/planner/targets/target';
import { InputError } from '../src/shared/errors';
import type { ParsedArgs } from './args';
import { targetSettingName } from './targets';

/** The export options of `plan`. */
export const EXPORT_OPTIONS = ['--save', '--header', '--csv'] as const;

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
}

/** Writes every export the options ask for; returns the paths written. */
export function writeExports(args: ParsedArgs, input: ExportInput): string[] {
  const { file, model, plan, target } = input;
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
  return written;
}

/** `out.csv` -> `out.sram.csv`: one solution file per region. */
export function regionPath(path: string, region: string): string {
  const safe = region.replace(/[^A-Za-z0-9_-]+/g, '_');
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash + 1 ? `${path.slice(0, dot)}.${safe}${path.slice(dot)}` : `${path}.${safe}`;
}

function writeText(path: string, text: string): string {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new InputError('io', `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return path;
}

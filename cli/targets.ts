// `heapscope targets`: the target presets; and `--target PRESET|FILE`
// resolution for the commands that plan.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { DEFAULT_TARGET, PRESET_NAMES, PRESETS, presetTarget } from '../src/planner/targets/presets';
import { parseTargetText } from '../src/planner/targets/parse';
import type { TargetProfile } from '../src/planner/targets/target';
import { InputError } from '../src/shared/errors';
import { formatBytes } from '../src/shared/format';
import type { ParsedArgs } from './args';
import { notAFile, readProblem, tooLargeMessage, type FileLimit, type Output } from './io';

/** Largest target profile file read. */
const TARGET_LIMIT: FileLimit = { bytes: 16 * 1024 * 1024, what: 'target profile' };

/** A `--target` that cannot be used (a profile file that cannot be read or parsed, or no such preset): `profile` names it, as `file` of a JSON error. */
export class TargetProfileError extends InputError {
  constructor(
    readonly profile: string,
    error: InputError,
  ) {
    super(error.code, error.message);
  }
}

/**
 * The target named by `--target`: a preset name, or the path of a JSON
 * profile; the default preset when absent. Throws TargetProfileError
 * ('bad-target').
 */
export function resolveTarget(arg: string | undefined): TargetProfile {
  if (arg === undefined) return presetTarget(DEFAULT_TARGET);
  const preset = PRESETS.get(arg);
  if (preset !== undefined) return preset;
  try {
    return readProfile(arg);
  } catch (error) {
    throw error instanceof InputError ? new TargetProfileError(arg, error) : error;
  }
}

/** The profile in the JSON file at `arg`. */
function readProfile(arg: string): TargetProfile {
  // "-" names no file and a profile is not read from stdin: say what --target takes, not that "-" is missing
  if (arg === '-') {
    throw new InputError('bad-target', `target "-": a target profile is read from a file (its path; a file named - is ./-) or named by a preset (${PRESET_NAMES.join(', ')}; \`heapscope targets\` lists them), not from stdin`);
  }
  if (!existsSync(arg)) {
    throw new InputError('bad-target', `unknown target "${arg}": not a preset (${PRESET_NAMES.join(', ')}) and no such file`);
  }
  const stat = statSync(arg);
  const problem = notAFile(arg, stat);
  if (problem !== undefined) throw new InputError('bad-target', `target ${problem}`);
  if (stat.size > TARGET_LIMIT.bytes) throw new InputError('bad-target', `target file ${tooLargeMessage(arg, stat.size, TARGET_LIMIT)}; profiles are small JSON documents`);
  let text: string;
  try {
    text = readFileSync(arg, 'utf8');
  } catch (error) {
    throw new InputError('bad-target', `cannot read target file ${arg}: ${readProblem(error)}`);
  }
  return parseTargetText(text.replace(/^\uFEFF/, ''), arg);
}

/** The target as a saved plan records it: the preset's name, or 'custom' for a profile file. */
export function targetSettingName(arg: string | undefined): string {
  if (arg === undefined) return DEFAULT_TARGET;
  return PRESETS.has(arg) ? arg : 'custom';
}

/** Runs `targets`; returns the exit code. */
export function runTargets(args: ParsedArgs, io: Output): number {
  if (args.files.length > 0) throw new InputError('bad-argument', `targets takes no file, got "${args.files[0]}"`);
  const targets = [...PRESETS.values()];
  if (args.flags.has('--json')) {
    io.out(JSON.stringify({ targets }) + '\n');
    return 0;
  }
  const lines: string[] = [];
  for (const t of targets) {
    lines.push(`${t.name}${t.name === DEFAULT_TARGET ? ' (default)' : ''}: ${t.description}`);
    for (const r of t.regions) {
      const limit = r.sizeLimit === undefined ? 'no limit' : `limit ${formatBytes(r.sizeLimit)}`;
      const use = r.name === t.planning.activationRegion ? ', activations' : '';
      lines.push(`    region ${r.name}: ${r.fast ? 'fast' : 'slow'}, align ${r.alignment}, ${limit}${use}`);
    }
    if (t.computeUnits.length > 0) lines.push(`    compute units: ${t.computeUnits.map((u) => `${u.name} (${u.dtype.activations})`).join(', ')}`);
    if (t.scratch.rules.length > 0) lines.push(`    scratch rules: ${t.scratch.rules.map((r) => `${r.opType}/${r.name}`).join(', ')}`);
    if (t.fusion !== undefined) lines.push(`    fusion: SRAM ${formatBytes(t.fusion.sramBytes)}, ${t.fusion.coresPerCluster} core(s)${t.fusion.dwPwCacheBytes ? `, dw-pw cache ${formatBytes(t.fusion.dwPwCacheBytes)}` : ''}`);
    lines.push(`    planning: strategy ${t.planning.strategy}, order ${t.planning.order}, graph I/O ${t.planning.graphIo}`);
  }
  lines.push('', '`targets --json` prints every profile in full: copy one into a file, edit it, and pass the file to --target.');
  io.out(lines.join('\n') + '\n');
  return 0;
}

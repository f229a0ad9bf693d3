// Loads the shared planner test data (peer vectors from other planners' test
// suites, real traces) from ../shared/planner, or reports it absent.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMinimallocCsv } from '../problem/minimalloc-csv';
import type { PlacementProblem } from '../problem/problem';

/** The shared planner data folder (next to the repository). */
export const SHARED_PLANNER_DIR = fileURLToPath(new URL('../../../../shared/planner', import.meta.url));

/** One case of peer-vectors.json; field names are the file's. */
export interface PeerCase {
  readonly buffers_half_open: readonly (readonly [number, number, number])[];
  readonly lower_bound: number;
  readonly alignment?: number;
  readonly greedy_size_firstfit_offsets: readonly number[];
  readonly greedy_size_bestfit_offsets: readonly number[];
  readonly expect_peak?: number | 'LB';
  readonly expect_peak_lt?: number;
  readonly expect_offsets?: readonly number[];
  readonly file_capacity?: number;
  readonly feasible_at_capacity?: number;
  readonly infeasible_at_capacity?: number;
  readonly optimum?: number;
  readonly optimum_proven?: boolean;
}

/** The peer vectors by name, or undefined when the shared folder is absent. */
export function loadPeerVectors(): Record<string, PeerCase> | undefined {
  const file = join(SHARED_PLANNER_DIR, 'peer-vectors.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, PeerCase>;
}

/** A peer case as a placement problem. */
export function peerProblem(c: PeerCase): PlacementProblem {
  const buffers = c.buffers_half_open.map(([start, end, size], id) => ({ id, name: `b${id}`, start, end, size }));
  return c.alignment === undefined ? { buffers } : { buffers, alignment: c.alignment };
}

/** The traces by file name, or undefined when the shared folder is absent. */
export function loadTraces(): Record<string, PlacementProblem> | undefined {
  const dir = join(SHARED_PLANNER_DIR, 'traces');
  if (!existsSync(dir)) return undefined;
  const traces: Record<string, PlacementProblem> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv')).sort()) {
    traces[file] = parseMinimallocCsv(readFileSync(join(dir, file), 'utf8'));
  }
  return traces;
}

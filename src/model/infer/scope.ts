// What inference over every graph of a model shares: the environment (opsets,
// dims, the user's bindings, the body budget) and the scope of facts a graph
// sees, falling back to its enclosing graph's. No DOM.

import type { IrNode } from '../ir';
import type { ModelDiagnostic } from '../inferred';
import type { DimTable } from './dims';
import type { TensorFact } from '../shape-rules/types';
import { nodeReads } from '../check-graph';
import type { BodyBudget } from './budget';

/** What every graph of one model shares during inference. */
export interface InferEnv {
  readonly opsets: ReadonlyMap<string, number>;
  readonly dims: DimTable;
  readonly report: (diagnostic: ModelDiagnostic) => void;
  readonly shapes?: ReadonlyMap<string, readonly number[]>; // user-given shapes, by tensor name
  readonly inputValues?: ReadonlyMap<string, readonly number[]>; // user-given graph-input values
  readonly budget: BodyBudget; // what inferring control-flow bodies may still cost
}

/** Facts visible in a graph, falling back to the enclosing graph's. */
export class Scope {
  readonly facts = new Map<string, TensorFact>();
  readonly constant = new Set<string>();
  readonly dynamic = new Set<string>(); // shape may depend on symbolic dims or data
  readonly producers = new Map<string, IrNode>(); // value name -> the node of this graph that makes it
  readonly graphInputs = new Set<string>(); // the model's graph inputs (main graph only)
  readonly unlikeFile = new Set<string>(); // values whose shape may differ from what the file declares (a user-given input shape upstream, or a mismatch)
  constructor(readonly parent: Scope | undefined) {}

  /** The scope (this one or an enclosing one) that defines `name`. */
  private ownerOf(name: string): Scope | undefined {
    return this.facts.has(name) ? this : this.parent?.ownerOf(name);
  }

  /** The model's graph inputs that `name` is computed from (through every enclosing graph). */
  inputsBehind(name: string): string[] {
    const found = new Set<string>();
    const seen = new Set<string>();
    const stack = [name];
    while (stack.length > 0 && seen.size < 10_000) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      const scope = this.ownerOf(n);
      if (scope === undefined) continue;
      if (scope.graphInputs.has(n)) found.add(n);
      const node = scope.producers.get(n);
      if (node !== undefined) stack.push(...nodeReads(node).filter((r) => r !== ''));
    }
    return [...found];
  }

  lookup(name: string): TensorFact | undefined {
    return this.facts.get(name) ?? this.parent?.lookup(name);
  }
  isConstant(name: string): boolean {
    return this.facts.has(name) ? this.constant.has(name) : this.parent?.isConstant(name) ?? false;
  }
  /** True when `name` may have another shape than the file declares for it: the file's declaration cannot fill its gaps. */
  isUnlikeFile(name: string): boolean {
    return this.facts.has(name) ? this.unlikeFile.has(name) : this.parent?.isUnlikeFile(name) ?? false;
  }
  isDynamic(name: string): boolean {
    return this.facts.has(name) ? this.dynamic.has(name) : this.parent?.isDynamic(name) ?? true;
  }
}

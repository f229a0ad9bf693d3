// Alias groups while a problem is being built: which buffers already share
// bytes, and where each sits inside its group. Depends only on build-buffers.
//
// Each group also keeps the members that may still be read: the sharing rules
// ask, step after step, which members block reuse, and a member read for the
// last time drops out of that list once, so a chain of n in-place ops (one
// group of n members) costs O(n) in all rather than O(n^2).

import { assert } from '../shared/assert';
import type { BufferSpec, SharingRule } from './build-buffers';

/** A member of an alias group and its byte offset from the group's root. */
export interface GroupMember {
  readonly spec: BufferSpec;
  readonly rel: number;
}

/** Tracks alias groups as sharing rules attach buffers to each other. */
export class AliasTracker {
  private readonly members = new Map<number, GroupMember[]>(); // root key -> members (root included, rel 0)
  private readonly rootKey = new Map<number, number>(); // key -> root key, for attached buffers
  private readonly relOf = new Map<number, number>(); // key -> offset from its root
  private readonly pending = new Map<number, BufferSpec[]>(); // root key -> members maybe read later (when grouped)
  private lastStep = -Infinity; // of readAfter, which only moves forwards

  constructor(private readonly specs: readonly BufferSpec[]) {}

  /** The group root of a buffer and the buffer's offset from it. */
  rootOf(spec: BufferSpec): { root: BufferSpec; rel: number } {
    const root = this.rootKey.get(spec.key);
    return root === undefined ? { root: spec, rel: 0 } : { root: this.specs[root]!, rel: this.relOf.get(spec.key)! };
  }

  /** Every member of the buffer's group, with offsets from the root. */
  groupOf(spec: BufferSpec): readonly GroupMember[] {
    const { root } = this.rootOf(spec);
    return this.members.get(root.key) ?? [{ spec: root, rel: 0 }];
  }

  /** True when the buffer shares bytes with no other buffer. */
  isAlone(spec: BufferSpec): boolean {
    return this.groupOf(spec).length === 1;
  }

  /**
   * Members of the buffer's group that are graph inputs or outputs or are
   * read after `step`. Calls must come with non-decreasing steps: members
   * found done are dropped for good.
   */
  readAfter(spec: BufferSpec, step: number): readonly BufferSpec[] {
    assert(step >= this.lastStep, `readAfter went back from step ${this.lastStep} to ${step}`);
    this.lastStep = step;
    const { root } = this.rootOf(spec);
    const stillRead = (s: BufferSpec) => s.graphIo || s.end > step + 1;
    const list = this.pending.get(root.key);
    if (list === undefined) return stillRead(root) ? [root] : [];
    const kept = list.filter(stillRead);
    this.pending.set(root.key, kept);
    return kept;
  }

  /** Offset of a buffer from its group's root. */
  relOfSpec(spec: BufferSpec): number {
    return this.relOf.get(spec.key) ?? 0;
  }

  /** Makes `child` (the root of its own group) live at `parent`'s offset + `offset`. */
  attach(child: BufferSpec, parent: BufferSpec, offset: number, rule: SharingRule): void {
    assert(child.alias === undefined && this.rootKey.get(child.key) === undefined, `buffer ${child.name} is attached twice`);
    assert(child.key !== parent.key, `buffer ${child.name} cannot alias itself`);
    const { root, rel } = this.rootOf(parent);
    assert(root.key !== child.key, `aliasing ${child.name} to ${parent.name} would form a cycle`);
    child.alias = { parent: parent.key, offset, rule };
    const target = this.members.get(root.key) ?? [{ spec: root, rel: 0 }];
    for (const member of this.groupOf(child)) {
      const at = rel + offset + member.rel;
      target.push({ spec: member.spec, rel: at });
      this.rootKey.set(member.spec.key, root.key);
      this.relOf.set(member.spec.key, at);
    }
    const pending = this.pending.get(root.key) ?? [root];
    for (const member of this.pending.get(child.key) ?? [child]) pending.push(member);
    this.members.delete(child.key);
    this.members.set(root.key, target);
    this.pending.delete(child.key);
    this.pending.set(root.key, pending);
  }
}

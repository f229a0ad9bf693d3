// Alias groups while a problem is being built: which buffers already share
// bytes, and where each sits inside its group. Depends only on build-buffers.
//
// - Joining two groups moves the members of the smaller one into the larger
//   one's record (each group keeps offsets in its own frame plus one shift),
//   so a chain of n nested joins, such as Concat outputs nested n deep,
//   costs O(n log n) rather than O(n^2).
// - Each group also keeps the members that may still be read: the sharing
//   rules ask, step after step, which members block reuse, and a member read
//   for the last time drops out of that list once, so a chain of n in-place
//   ops costs O(n) in all.
// - Each group knows how far past its root's offset its other members reach.

import { assert } from '../../shared/assert';
import type { BufferSpec, SharingRule } from './build-buffers';

/** A group of two or more buffers; a buffer alone has none. */
interface Group {
  root: BufferSpec;
  readonly members: BufferSpec[];
  shift: number; // a member's offset from the root is its stored offset + shift
  pending: BufferSpec[]; // members that may still be read
  reach: number; // the end of the furthest member other than the root, from the root
}

/** Tracks alias groups as sharing rules attach buffers to each other. */
export class AliasTracker {
  private readonly groups = new Map<number, Group>(); // buffer key -> its group
  private readonly stored = new Map<number, number>(); // buffer key -> offset in its group's frame
  private lastStep = -Infinity; // of readAfter, which only moves forwards

  /** The group root of a buffer and the buffer's offset from it. */
  rootOf(spec: BufferSpec): { root: BufferSpec; rel: number } {
    const group = this.groups.get(spec.key);
    return group === undefined ? { root: spec, rel: 0 } : { root: group.root, rel: this.relOfSpec(spec) };
  }

  /** Offset of a buffer from its group's root. */
  relOfSpec(spec: BufferSpec): number {
    const group = this.groups.get(spec.key);
    return group === undefined ? 0 : this.stored.get(spec.key)! + group.shift;
  }

  /** True when the buffer shares bytes with no other buffer. */
  isAlone(spec: BufferSpec): boolean {
    return !this.groups.has(spec.key);
  }

  /** Bytes from the root's offset to the end of the group's furthest member other than the root (0 alone). */
  reachOf(spec: BufferSpec): number {
    return this.groups.get(spec.key)?.reach ?? 0;
  }

  /**
   * Members of the buffer's group that are graph inputs or outputs, model
   * state (read again at the next run) or read after `step`. Calls must come
   * with non-decreasing steps: members found done are dropped for good.
   */
  readAfter(spec: BufferSpec, step: number): readonly BufferSpec[] {
    assert(step >= this.lastStep, `readAfter went back from step ${this.lastStep} to ${step}`);
    this.lastStep = step;
    const stillRead = (s: BufferSpec) => s.graphIo || s.state === true || s.end > step + 1;
    const group = this.groups.get(spec.key);
    if (group === undefined) return stillRead(spec) ? [spec] : [];
    group.pending = group.pending.filter(stillRead);
    return group.pending;
  }

  /**
   * Makes `child` (the root of its own group) live at `parent`'s offset +
   * `offset`. Sizes must be final: the group's reach is taken from them.
   */
  attach(child: BufferSpec, parent: BufferSpec, offset: number, rule: SharingRule): void {
    assert(child.alias === undefined && this.rootOf(child).root === child, `buffer ${child.name} is attached twice`);
    assert(child.key !== parent.key, `buffer ${child.name} cannot alias itself`);
    const { root, rel } = this.rootOf(parent);
    assert(root.key !== child.key, `aliasing ${child.name} to ${parent.name} would form a cycle`);
    child.alias = { parent: parent.key, offset, rule };
    const at = rel + offset; // the child's offset from the joined group's root
    const outer = this.groupFor(root);
    const inner = this.groupFor(child);
    const reach = Math.max(outer.reach, at + child.size, at + inner.reach);
    const [kept, moved, movedShift] = outer.members.length >= inner.members.length ? [outer, inner, at] : [inner, outer, -at];
    // offsets of `moved` members from `kept`'s root frame: stored + moved.shift + movedShift - kept.shift
    for (const member of moved.members) {
      this.stored.set(member.key, this.stored.get(member.key)! + moved.shift + movedShift - kept.shift);
      this.groups.set(member.key, kept);
      kept.members.push(member);
    }
    for (const member of moved.pending) kept.pending.push(member);
    if (kept === inner) {
      // the joined group's root is the parent's: shift the frame so that it sits at 0
      kept.shift -= this.stored.get(root.key)! + kept.shift;
      kept.root = root;
    }
    kept.reach = reach;
  }

  /** The group of a root, made when it is alone. */
  private groupFor(root: BufferSpec): Group {
    const group = this.groups.get(root.key);
    if (group !== undefined) return group;
    const made: Group = { root, members: [root], shift: 0, pending: [root], reach: 0 };
    this.groups.set(root.key, made);
    this.stored.set(root.key, 0);
    return made;
  }
}

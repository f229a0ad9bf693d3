// Which end of a side's label gives way when the Compare header has no room
// for it whole: the end where A and B differ stays in view. Pure, no DOM.

/** Which end of a label is kept when it is cut. */
export type KeptEnd = 'start' | 'end';

/**
 * The end of `label` to keep in view beside `other` (the other side's label):
 * labels that agree longer at their start than at their end differ toward
 * their end ("tflm_person_detect.tflite" and "tflm_person_detect_vela.tflite";
 * "seq_len=128 · … · past_seq_len=0" and "seq_len=1 · … · past_seq_len=8"), so
 * their end is kept; otherwise, and with no other side, their start is.
 */
export function keptEnd(label: string, other: string | undefined): KeptEnd {
  if (other === undefined || other === label) return 'start';
  return sharedStart(label, other) > sharedEnd(label, other) ? 'end' : 'start';
}

function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

function sharedEnd(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

// The words of the link notice (link-notice.tsx): its headline counts the
// parameters of the link that were left out, and only those. The line saying
// the link was made for another file is no left-out parameter (the link's
// target and strategy may well have applied): the headline says it apart.

/** The notice's headline: `leftOut` parameters of the link left out, and whether the link was made for another file than the one opened. */
export function linkNoticeTitle(leftOut: number, otherFile: boolean): string {
  const count = leftOut === 1 ? 'a parameter' : `${leftOut} parameters`;
  if (!otherFile) return leftOut === 1 ? 'A parameter of the link was left out' : `${leftOut} parameters of the link were left out`;
  if (leftOut === 0) return 'The link was made for another file';
  return `The link was made for another file, and ${count} of it ${leftOut === 1 ? 'was' : 'were'} left out`;
}

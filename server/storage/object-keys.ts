/** Object key timestamps of the provider-documents bucket (spec §7 `{userId}/{documentType}/{timestamp}.{ext}`). */

let lastTimestamp = 0;
/**
 * Milliseconds since the epoch for an object key, strictly increasing within this process, so two
 * uploads in the same millisecond never share (and overwrite) a key. Documents, evidence files
 * (issue 13) and copied documents (issue 14) draw from this one counter.
 */
export function nextKeyTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

// Time on the wire: Zulip sends timestamps as whole seconds since the epoch.

export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

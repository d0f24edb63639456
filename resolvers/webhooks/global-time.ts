// Zulip's `<time:…>` syntax (zerver/lib/timestamp.py datetime_to_global_time), which clients show
// in the reader's time zone: shared by the integrations that print the third party's times.
import { BadRequestError } from '../errors.ts';
import type { WildValue } from './payload.ts';

/**
 * Zulip's datetime_to_global_time(datetime.fromisoformat(...)): `<time:...>` with the sender's own
 * offset, to the second. A time without an offset is refused, as Zulip refuses it.
 */
export function globalTime(value: WildValue): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2})?(?::?(\d{2})(?:[.,]\d+)?)?)$/.exec(value.str());
  if (!match) throw new BadRequestError(`${value.varName} is not a date and time with a time zone`);
  const [, year, month, day, hour, minute, second = '00', zulu, sign, offsetHours, offsetMinutes = '00', offsetSeconds = '00'] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const validDate = Number(year) >= 1 && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  if (!validDate || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59
    || (!zulu && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59 || Number(offsetSeconds) > 59))) {
    throw new BadRequestError(`${value.varName} is not a date and time with a time zone`);
  }
  let offset = '+00:00';
  if (!zulu && `${offsetHours}${offsetMinutes}${offsetSeconds}` !== '000000') {
    offset = `${sign}${offsetHours}:${offsetMinutes}${offsetSeconds === '00' ? '' : `:${offsetSeconds}`}`;
  }
  return `<time:${year}-${month}-${day}T${hour}:${minute}:${second}${offset}>`;
}

import { dateTimeText, dayText, SAS_CLOCK } from './date-time-text.js';

/**
 * What SAS's numeric formats say about a number, shared by the transport (.xpt) and data set
 * (.sas7bdat) readers: SAS counts dates in days and date-times in seconds from 1 January 1960, and
 * only the variable's format tells a date from a count.
 */

/** Days from SAS's epoch, 1 January 1960, to the Unix epoch. */
const SAS_EPOCH_DAYS = 3653;
const DATE_FORMATS = /^(DATE|DDMMYY|MMDDYY|YYMMDD|E8601DA|B8601DA|IS8601DA|YYMMDDN|WORDDATE|WEEKDATE|MONYY|YYMON|JULIAN|NLDATE)/;
const DATETIME_FORMATS = /^(DATETIME|DATEAMPM|E8601DT|B8601DT|IS8601DT|NLDATM|MDYAMPM)/;

export type SasDateKind = 'date' | 'datetime';

/** Whether a numeric variable with this format (any case, width and decimals included) holds dates or date-times. */
export function sasDateKind(format: string): SasDateKind | undefined {
  const name = format.toUpperCase();
  // DATETIME before DATE: the one name starts with the other.
  if (DATETIME_FORMATS.test(name)) return 'datetime';
  if (DATE_FORMATS.test(name)) return 'date';
  return undefined;
}

/**
 * The ISO text of a SAS date (days) or date-time (seconds), with every fraction (of a second, or
 * of a day under a date format) the double holds; '' when no calendar date can be that value.
 */
export function sasDateText(value: number, kind: SasDateKind): string {
  return (kind === 'date' ? dayText(value, SAS_EPOCH_DAYS) : dateTimeText(value, SAS_CLOCK)) ?? '';
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const NUMBER = /^\d{1,2}$/;

function clock(hour: string, minute: string): string {
  return `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;
}

function dayList(field: string): string | undefined {
  if (field === '1-5') return 'on weekdays';
  if (field === '0,6' || field === '6,0') return 'on weekends';
  const days = field.split(',');
  if (!days.every((day) => /^[0-7]$/.test(day))) return undefined;
  return `on ${days.map((day) => DAYS[Number(day) % 7]).join(', ')}`;
}

/**
 * A cron expression in words for the common shapes (every N minutes, hourly, daily, weekdays, weekly,
 * monthly); undefined for anything else, where the next-runs preview says it better than words would.
 */
export function describeCron(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if (month !== '*') return undefined;
  if (dayOfMonth === '*' && dayOfWeek === '*') {
    if (minute === '*' && hour === '*') return 'Every minute';
    const step = /^\*\/(\d{1,2})$/.exec(minute);
    if (step !== null && hour === '*') return `Every ${step[1]} minutes`;
    if (NUMBER.test(minute) && hour === '*') return `Every hour at minute ${minute}`;
    const hourStep = /^\*\/(\d{1,2})$/.exec(hour);
    if (NUMBER.test(minute) && hourStep !== null) return `Every ${hourStep[1]} hours at minute ${minute}`;
    if (NUMBER.test(minute) && NUMBER.test(hour)) return `Every day at ${clock(hour, minute)}`;
    return undefined;
  }
  if (!NUMBER.test(minute) || !NUMBER.test(hour)) return undefined;
  if (dayOfMonth === '*') {
    const days = dayList(dayOfWeek);
    return days === undefined ? undefined : `At ${clock(hour, minute)} ${days}`;
  }
  if (dayOfWeek === '*' && NUMBER.test(dayOfMonth)) {
    return `At ${clock(hour, minute)} on day ${dayOfMonth} of every month`;
  }
  return undefined;
}

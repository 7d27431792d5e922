function toTwelveHour(time: string): string {
  const [h, m] = time.split(':');
  const hour = Number(h);
  return String(hour % 12 || 12) + ':' + m + (hour >= 12 ? ' PM' : ' AM');
}

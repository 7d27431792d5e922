function toTwelveHour(time: string): string {
  const [h, m] = time.split(':').map(Number);
  const suffix = h > 12 ? 'PM' : 'AM';
  const hour = h > 12 ? h - 12 : h;
  return hour + ':' + String(m).padStart(2, '0') + ' ' + suffix;
}

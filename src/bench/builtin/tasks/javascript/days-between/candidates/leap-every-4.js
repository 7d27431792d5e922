function daysBetween(a, b) {
  const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const isLeap = (y) => y % 4 === 0;
  const ordinal = (s) => {
    const [y, m, d] = s.split('-').map(Number);
    let days = 0;
    for (let year = 1000; year < y; year++) days += isLeap(year) ? 366 : 365;
    for (let month = 1; month < m; month++) days += monthDays[month - 1] + (month === 2 && isLeap(y) ? 1 : 0);
    return days + d;
  };
  return ordinal(b) - ordinal(a);
}

//Return the number of days from date a to date b, both given as
// "YYYY-MM-DD" in the proleptic Gregorian calendar (negative if b is before
// a). Years are between 1000 and 9999.
// >>> daysBetween("2024-01-01", "2024-03-01")
// 60
// >>> daysBetween("2024-03-10", "2024-03-01")
// -9
function daysBetween(a, b){
  // Days since 0000-03-01 (H. Hinnant's days_from_civil).
  const toDays = (iso) => {
    let [y, m, d] = iso.split('-').map(Number);
    if (m <= 2) y -= 1;
    const era = Math.floor(y / 400);
    const yoe = y - era * 400;
    const mp = (m + 9) % 12;
    const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
    return era * 146097 + doe;
  };
  return toDays(b) - toDays(a);
}

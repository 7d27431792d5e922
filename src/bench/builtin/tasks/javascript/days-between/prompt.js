//Return the number of days from date a to date b, both given as
// "YYYY-MM-DD" in the proleptic Gregorian calendar (negative if b is before
// a). Years are between 1000 and 9999.
// >>> daysBetween("2024-01-01", "2024-03-01")
// 60
// >>> daysBetween("2024-03-10", "2024-03-01")
// -9
function daysBetween(a, b){

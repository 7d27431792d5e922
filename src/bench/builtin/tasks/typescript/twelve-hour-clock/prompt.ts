//Convert a 24-hour time "HH:MM" to 12-hour form "h:MM AM" or "h:MM PM",
// without a leading zero on the hour. Midnight is 12:00 AM and noon 12:00 PM.
// >>> toTwelveHour("13:05")
// "1:05 PM"
// >>> toTwelveHour("00:30")
// "12:30 AM"
function toTwelveHour(time: string): string {

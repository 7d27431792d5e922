//Split one line of CSV into its fields. Fields are separated by commas. A
// field may be enclosed in double quotes; inside quotes a comma is literal and
// two double quotes ("") stand for one. The enclosing quotes are removed. An
// empty line has one empty field.
// >>> parseCsvLine('a,"b,c",d')
// ["a", "b,c", "d"]
// >>> parseCsvLine('"say ""hi""",x')
// ['say "hi"', "x"]
function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inQuotes) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      inQuotes = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
  }
  fields.push(field);
  return fields;
}

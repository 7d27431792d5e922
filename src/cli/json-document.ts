import { writeFile } from 'node:fs/promises';

/** Writes a command's JSON document to its --json file, if one was given, and says where. */
export async function writeJsonDocument(path: string | undefined, document: object, what = 'results'): Promise<void> {
  if (path === undefined) return;
  await writeFile(path, JSON.stringify(document, null, 1) + '\n');
  process.stdout.write(`\n${what} written to ${path}\n`);
}

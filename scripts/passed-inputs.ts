/**
 * The record of a check's last passing run: the files it read, by the hash of their texts. A check
 * whose inputs are all as they were then passes again without running, as `tsc --build` tells a
 * project up to date: scripts/check-examples.ts parsed the project's 880 files, and TypeDoc converted
 * the API, to find each time what its incremental cache already held (10 s of CPU, where this takes 0.3).
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { writeWhole } from './write-whole.ts';

/** What a passing run read: the files named to it (a change of the list is a change), and every file it read, and their hash. */
type PassRecord = { named: string[]; read: string[]; hash: string };

/** The hash of files by name and text, in the order of their names. */
function hashOf(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const file of [...files.keys()].sort()) hash.update(`${file}\0${files.get(file)!.length}\0`).update(files.get(file)!);
  return hash.digest('hex');
}

/** The texts of `files` as they are now, or `undefined` if one is missing. */
function textsOf(files: readonly string[]): Map<string, string> | undefined {
  const texts = new Map<string, string>();
  for (const file of files) {
    try {
      texts.set(file, readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  }
  return texts;
}

/** Whether the run recorded at `path` passed with the files `named` and read files that are all as they were. */
export function passedAsIs(path: string, named: readonly string[]): boolean {
  let record: PassRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
  if (record.named.length !== named.length || record.named.some((f, i) => f !== named[i])) return false;
  const texts = textsOf(record.read);
  return texts !== undefined && hashOf(texts) === record.hash;
}

/**
 * Records at `path` that a run with the files `named` passed, having read the files of `read` with
 * the texts it gives (the texts it checked, not the files' texts now); whole or not at all (renamed
 * into place), as two runs at once may write it.
 */
export function recordPass(path: string, named: readonly string[], read: ReadonlyMap<string, string>): void {
  const record: PassRecord = { named: [...named], read: [...read.keys()].sort(), hash: hashOf(read) };
  writeWhole(path, JSON.stringify(record));
}

/** Forgets the passing run recorded at `path`, after a run that failed. */
export function forgetPass(path: string): void {
  rmSync(path, { force: true });
}

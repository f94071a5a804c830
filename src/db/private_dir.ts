// The embedded database's files hold every lead (the write-ahead log too): only the server's own user may
// read or change them. PGlite creates them private (pglite.ts); files that come from elsewhere (a copy, an
// older version) are repaired here.

export interface Repaired {
  dirs: number;
  files: number;
}

/**
 * Makes `dir` and every directory below it 0700 and every file 0600, changing only what is looser or
 * otherwise different; returns how many it changed. Symbolic links are left alone (not followed).
 */
export async function makePrivate(dir: string): Promise<Repaired> {
  const repaired: Repaired = { dirs: 0, files: 0 };
  const fix = async (path: string, mode: number, kind: keyof Repaired) => {
    const info = await Deno.lstat(path);
    if (info.isSymlink || info.mode === null) return;
    if ((info.mode & 0o777) !== mode) {
      await Deno.chmod(path, mode);
      repaired[kind]++;
    }
  };
  await fix(dir, 0o700, "dirs");
  const walk = async (path: string): Promise<void> => {
    for await (const entry of Deno.readDir(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) {
        await fix(child, 0o700, "dirs");
        await walk(child);
      } else if (entry.isFile) await fix(child, 0o600, "files");
    }
  };
  await walk(dir);
  return repaired;
}

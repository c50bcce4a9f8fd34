import fs from "node:fs/promises";
import path from "node:path";

/**
 * Writes `data` to `abs` so readers see either the old or the new file, never half of one: the
 * data goes to a temporary file in the same directory, which is then renamed over the target.
 * Creates missing parent directories and keeps an existing file's permission bits.
 * Throws the file system's error; the temporary file is removed first.
 */
export async function writeFileAtomic(abs: string, data: string): Promise<void> {
  const dir = path.dirname(abs);
  await fs.mkdir(dir, { recursive: true });
  const mode = await existingMode(abs);
  const temp = path.join(
    dir,
    `.${path.basename(abs)}.${Math.random().toString(36).slice(2, 10)}.bowline.tmp`,
  );
  try {
    const handle = await fs.open(temp, "wx", mode ?? 0o666);
    try {
      await handle.writeFile(data, "utf8");
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, abs);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

async function existingMode(abs: string): Promise<number | undefined> {
  try {
    return (await fs.stat(abs)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

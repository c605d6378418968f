/** A compiled `--glob`. Paths are workspace-relative POSIX, folders without a trailing `/`. */
export interface CompiledGlob {
  /** The glob started with `!`: matching paths are excluded rather than selected. */
  negated: boolean;
  /** Whether the path itself matches (parents are not considered). */
  matches(rel: string, isDir?: boolean): boolean;
  /**
   * ripgrep's override verdict, which beats the ignore files: a selecting glob includes the files
   * it matches and excludes the other files (folders it does not match are left to the ignore
   * files, so the walk still enters them); a negated glob excludes what it matches.
   */
  verdict(rel: string, isDir: boolean): 'include' | 'exclude' | undefined;
}

/**
 * Compiles one glob with ripgrep's `--glob` meaning, so the JS search and `rg` pick the same
 * files: a glob without `/` matches the name at any depth (`*.ts`), one with `/` matches the whole
 * workspace-relative path (`src/**\/*.ts`); `*` and `?` stay within one segment, `**` crosses
 * them, `[...]` and `{a,b}` work; a trailing `/` matches folders only; a leading `!` negates.
 * Throws `SyntaxError` for a glob that cannot be compiled (e.g. a reversed range `[z-a]`).
 */
export function compileGlob(glob: string): CompiledGlob {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const matches = compileSingle(body);
  const verdict = (rel: string, isDir: boolean): 'include' | 'exclude' | undefined => {
    const hit = matches(rel, isDir);
    if (negated) return hit ? 'exclude' : undefined;
    if (hit) return 'include';
    return isDir ? undefined : 'exclude';
  };
  return { negated, matches, verdict };
}

function compileSingle(glob: string): (rel: string, isDir?: boolean) => boolean {
  let pattern = glob;
  // A trailing `/` means "folders only".
  const dirOnly = pattern.endsWith('/');
  if (dirOnly) pattern = pattern.replace(/\/+$/, '');
  const anchored = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const source = translate(pattern);
  const regex = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  return (rel, isDir = false) => (isDir || !dirOnly) && regex.test(rel);
}

function translate(glob: string): string {
  let out = '';
  let i = 0;
  let braceDepth = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const startOfSegment = i === 0 || glob[i - 1] === '/';
        const next = glob[i + 2];
        if (startOfSegment && next === '/') {
          out += '(?:.*/)?';
          i += 3;
          continue;
        }
        if (startOfSegment && next === undefined) {
          out += '.*';
          i += 2;
          continue;
        }
      }
      out += '[^/]*';
      i += glob[i + 1] === '*' ? 2 : 1;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        i++;
        continue;
      }
      let cls = glob.slice(i + 1, end);
      if (cls.startsWith('!')) cls = '^' + cls.slice(1);
      out += `[${cls.replace(/\\/g, '\\\\').replace(/\//g, '')}]`;
      i = end + 1;
    } else if (c === '{') {
      braceDepth++;
      out += '(?:';
      i++;
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
      i++;
    } else if (c === ',' && braceDepth > 0) {
      out += '|';
      i++;
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i += 2;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return out + ')'.repeat(braceDepth);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

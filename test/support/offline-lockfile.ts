/**
 * Offline installs for the packaging test: a lockfile for a fresh project, cut from this repository's own
 * `package-lock.json`.
 *
 * Why a lockfile: `npm ci` fills the npm cache with the locked tarballs and, because this repository's lockfile
 * carries no `resolved` URLs (`omit-lockfile-registry-resolved`), with the abbreviated ("corgi") registry
 * documents it read to find them. `npm install <name>@<version>` in a project without a lockfile builds its tree
 * from the registry's *full* documents (npm 11's arborist asks for `fullMetadata`), which are not in that cache:
 * offline it fails with ENOTCACHED, or ERESOLVE "Found: …@undefined" for a peer. `npm ci` from a lockfile whose
 * entries are the ones this repository locked needs only what the cache holds.
 *
 * @packageDocumentation
 */

/** One entry of a lockfile's `packages` (lockfile version 3). */
export interface LockEntry {
  readonly version?: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly [field: string]: unknown;
}

/** A lockfile (version 3). */
export interface Lockfile {
  readonly name: string;
  readonly version: string;
  readonly lockfileVersion: 3;
  readonly requires: true;
  readonly packages: Readonly<Record<string, LockEntry>>;
}

/** The project to lock. */
export interface LockedProject {
  readonly name: string;
  readonly version: string;
  /** The project's devDependencies (what its package.json declares). */
  readonly devDependencies: Readonly<Record<string, string>>;
  /** Entries not in the source lockfile (the package under test), by path (`node_modules/trustgate`). */
  readonly extra?: Readonly<Record<string, LockEntry>>;
}

/**
 * Builds the lockfile of a project from entries of a source lockfile: the root's dependencies and everything
 * they need (dependencies, optional dependencies and non-optional peers, found the way Node finds them: the
 * nearest `node_modules` up the tree), nothing else.
 *
 * @param source - The source lockfile (this repository's).
 * @param project - Name, version, devDependencies and the entries to add.
 * @returns The lockfile.
 * @throws Error when a dependency has no entry in either (the project needs a package this repository never locked).
 */
export function lockfileFor(source: Lockfile, project: LockedProject): Lockfile {
  const available: Record<string, LockEntry> = { ...source.packages, ...project.extra };
  const packages: Record<string, LockEntry> = {
    "": { name: project.name, version: project.version, devDependencies: { ...project.devDependencies } },
  };
  const pending: string[] = [];
  const need = (from: string, name: string) => {
    const path = locate(available, from, name);
    if (path === undefined) throw new Error(`No locked entry for ${name} (needed by ${from || "the project"})`);
    if (packages[path] === undefined) {
      packages[path] = available[path]!;
      pending.push(path);
    }
  };
  for (const name of Object.keys(project.devDependencies)) need("", name);
  while (pending.length > 0) {
    const path = pending.pop()!;
    const entry = packages[path]!;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
    for (const name of [...Object.keys(entry.dependencies ?? {}), ...peers]) need(path, name);
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (locate(available, path, name) !== undefined) need(path, name);
    }
  }
  return { name: project.name, version: project.version, lockfileVersion: 3, requires: true, packages };
}

/** The lockfile path Node would load `name` from, required by the package at `from` (`""` for the root). */
function locate(packages: Readonly<Record<string, LockEntry>>, from: string, name: string): string | undefined {
  for (let dir = from; ;) {
    const candidate = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (dir === "") return undefined;
    const index = dir.lastIndexOf("/node_modules/");
    dir = index < 0 ? "" : dir.slice(0, index);
  }
}

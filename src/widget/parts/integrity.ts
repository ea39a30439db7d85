// The `sha256-...` hashes of the parts that the code built from here loads, which it checks
// each against before it runs (./imports-beside.ts, ./checked-import.ts): the self-contained
// bundles carry the pay part's and the languages part's, the pay part those of the parts it
// loads (scripts/integrity.ts, CARRIED). The build writes them in once those parts are built
// (builtIntegrity() in vite.config.ts and vite.parts.config.ts); nothing else loads a part
// from beside a bundle (./imports.ts), so the sources have none.
// By part name (a string here, not ./types.ts's PartName: the pay part, which that type names,
// exports this table). The bundle's grows with the hashes each part it loads brings.
export const PART_INTEGRITY: Record<string, string> = {};

// Package persist keeps an index on disk between starts: one folder per
// index key ({dir}/{key}/) holding the bleve index, the lookup tables file
// beside it and a manifest of both, with sizes and CRC-32C checksums. It
// builds a new index in a scratch folder and renames it into place only
// once complete (Build), checks a folder against its manifest before it
// is used (Check, MapTables), copies a prebuilt index in (PlantSeed),
// merges a bleve folder into one segment (Compact) and removes the
// folders of other keys (RemoveOthers). The tables file is mapped
// read-only, and its pages handed back to the page cache when asked
// (ReleasePages). What goes into the folder is package index's business.
package persist

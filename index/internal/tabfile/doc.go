// Package tabfile is the file format of the lookup tables: named
// sections, each a flat array (uint32, int32, float64 or bytes), in one
// file, so that opening the tables is a matter of pointing slices into a
// read-only mapping of the file: no decoding, no per-record work, and the
// kernel pages in only what queries touch. The same bytes, built in
// memory, serve an index that is not persisted, so there is one
// representation to read. What the sections hold is package tables'
// business; this package knows only their layout.
package tabfile

// Package errkb owns the domain of the error knowledge base: the Record
// model and its one field table, loading records from dataset folders,
// validating them, the one link policy, and the dataset embedded in the
// binary. It depends on the standard library (and internal/parallel)
// only, so every other package can build on it.
//
// The files, each referring only to those listed before it
// (TestFilesReferOnlyUp): the load path, from load.go near the end, only
// ever goes up the list.
//
//	record.go     the Record and what pages ask of it
//	problems.go   what is wrong with a dataset, as Load reports it
//	limits.go     every cap, named once, and the checks of sizes
//	links.go      the one link policy
//	schema.go     the types of the field table
//	fields.go     the field table: every key errkb reads, its type, cap and attributes
//	walk.go       one walk of a record's values through the table, for every pass
//	shape.go      a record's texts and shape, as a storage engine keeps them
//	validate.go   the types and values of a record's fields
//	keys.go       keys given twice or in another case
//	hostile.go    what a hostile dataset could use: depth, sizes, links
//	fastparse.go  the quick way to a Record, sure to agree with the careful way
//	parse.go      a file's entries, each made a Record the quick or the careful way
//	folder.go     a dataset folder and its files
//	provenance.go where extracted records came from
//	merge.go      a curated record and its extracted twin made one record, losing no fact
//	dataset.go    the Dataset and its lookups
//	hash.go       the dataset's content hash
//	load.go       Load: the folders' files, parsed on every CPU, made a Dataset
//	embed.go      the dataset and index built into the binary
//
// # Storage
//
// Where records' bytes live is not this package's business: internal/store
// moves them out of the heap and saves snapshots. The contract between the
// two is declared here, on the model's side, and it is all the engine
// uses; this package imports nothing of it and knows no file, mapping or
// checksum.
//
//   - Options.Parsed hands the engine each file's valid records as soon
//     as they are parsed, to move their bytes. Loading takes their digests
//     for Dataset.Hash first, so the hash never reads moved bytes back.
//   - AppendTexts and AppendShape list a record's values in the field
//     table's order, and Arena.SetShape sets the shape back and lists the
//     texts to set: the engine saves and reads records without naming a
//     field, and a field added to the table is stored with no change to
//     it.
//   - Record.HoldRaw lets the engine keep a record's raw JSON in a form of
//     its own, through a RawHolder that gives the bytes back; KnownKeys are
//     the keys it may hold once for all records.
//   - Dataset.SetStorage takes the engine's Storage: releasing the
//     records' pages, the order to read them in, and a hash saved with
//     them.
//   - NewDataset, Folder.Files and ReadProvenance let the engine set a
//     dataset back from a snapshot.
package errkb

package extract

// RecordID is the id of the record of the error with key, in repo: what
// Records gives it, for a later step that fills records from the errors
// they were made of.
func RecordID(repo, key string) string { return recordID(repo, key) }

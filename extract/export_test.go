package extract

// ClosesName is closes, for the external tests.
var ClosesName = closes

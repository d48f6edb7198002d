package errkbtest

import (
	"testing/fstest"

	"github.com/errkb/errkb"
)

// HostileJSON is a record of a fictional project whose every text field
// carries markup and script, as a hostile dataset would.
const HostileJSON = `{"record": {
 "id": "hostile-0001", "repo": "example-org/hostile-fixture", "slug": "script-in-fields",
 "errorCode": "E_<script>alert(1)</script>", "errorMessage": "failed: <img src=x onerror=alert(1)> stream closed",
 "messagePattern": "failed: <svg onload=alert(1)>", "errorClass": "\"><script>alert(2)</script>", "severity": "error<b>",
 "documentation": "See <script>alert(3)</script> and <a href=\"javascript:alert(4)\">x</a> and <img src=x onerror=alert(1)>",
 "triggerScenarios": "<iframe src=javascript:alert(5)></iframe> and \"><svg/onload=alert(6)>",
 "commonSituations": "<div onmouseover=\"alert(7)\">hover</div> <style>body{}</style>",
 "solutions": ["Use <stream> then [ok](https://example.com/ok)", "<style>*{}</style>"],
 "preventionTips": ["<form action=javascript:alert(9)><button>x</button></form>"],
 "exampleFix": "</code></pre><script>alert(10)</script>",
 "sourceCode": "line one <script>\nline two onerror=x\n", "sourceCodeStart": 10, "sourceCodeEnd": 11, "lineNumber": 11,
 "filePath": "<script>.go",
 "tags": ["xss<script>", "onload=alert(1)"]
}, "datasetVersion": "2026-01-01"}`

// HostileFolder is a dataset folder holding only the hostile record.
func HostileFolder() errkb.Folder {
	return errkb.Folder{Name: "hostile", FS: fstest.MapFS{"h.json": {Data: []byte(HostileJSON)}}}
}

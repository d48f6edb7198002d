// MiniSearch on the real-record relevance suite: the same records and
// queries errkb is scored on (testdata/realrelevance), top-1 per half and
// kind. Run through scripts/minisearch.sh, which installs minisearch.
import fs from 'node:fs'
import path from 'node:path'
import MiniSearch from 'minisearch'

const root = process.argv[2] || 'testdata/realrelevance'
const records = []
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true, encoding: 'utf8' }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) walk(p)
    else if (e.name.endsWith('.jsonl') || (e.name.endsWith('.json') && e.name !== '_source.json')) {
      for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
        if (line.trim()) {
          const v = JSON.parse(line)
          records.push(v.record ?? v)
        }
      }
    }
  }
}
walk(path.join(root, 'dataset'))
const queries = JSON.parse(fs.readFileSync(path.join(root, 'queries.json'), 'utf8'))

// Words split at white space and punctuation other than '_'; identifiers
// are indexed whole and split on '_'.
const tokenize = (text) => {
  const out = []
  for (const t of text.split(/[\s\p{Z}!-\/:-@\[-\^`{-~]+/u)) {
    if (!t) continue
    out.push(t)
    if (t.includes('_')) out.push(...t.split('_').filter(Boolean))
  }
  return out
}

const ms = new MiniSearch({
  fields: ['errorCode', 'errorClass', 'errorMessage', 'documentation', 'typeGuard', 'exampleFix'],
  storeFields: ['id'],
  tokenize,
  searchOptions: { fuzzy: 0.2, prefix: true, boost: { errorCode: 3, errorClass: 2, errorMessage: 2 } },
})
ms.addAll(records)

const stats = {}
for (const q of queries) {
  const key = q.half
  stats[key] ??= {}
  const s = (stats[key][q.kind] ??= { n: 0, top1: 0 })
  const all = (stats[key]['**all**'] ??= { n: 0, top1: 0 })
  const res = ms.search(q.q)
  const hit = res.length > 0 && res[0].id === q.want ? 1 : 0
  s.n++; s.top1 += hit
  all.n++; all.top1 += hit
}
for (const half of ['tune', 'held']) {
  console.log(`MiniSearch, ${half} half (${records.length} records)`)
  console.log('| kind | queries | top-1 |\n| --- | ---: | ---: |')
  for (const k of Object.keys(stats[half]).sort()) {
    const s = stats[half][k]
    console.log(`| ${k} | ${s.n} | ${(s.top1 / s.n).toFixed(3)} |`)
  }
  console.log()
}
